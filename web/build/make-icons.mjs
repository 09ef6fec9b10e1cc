// Draws the installed app's PNG icons from web/public/favicon.svg into web/public/icons/, with
// Debian's Chromium through playwright-core. Run once when the logo changes, and commit the PNGs
// (the build copies them as they are and never needs a browser):
//   node web/build/make-icons.mjs            (SVCTEST_CHROMIUM=/path/to/chromium to use another)
// Three kinds (docs/2026-11-29-installable-app.md):
//   - icon-<n>.png, purpose "any": the favicon as drawn, rounded corners on transparency, at
//     every size launchers and stores ask for (Android's densities 48–192, Chrome's 192/512
//     install and splash icons, 128/256 for desktop launchers, 384 for high-density splashes);
//   - maskable-<n>.png: a full-bleed square of the logo's blue with the play mark inside the
//     central 40 % radius, the safe zone every launcher's mask (circle, squircle, teardrop) keeps;
//   - apple-touch-icon.png (180 px): full-bleed and opaque, since iOS rounds the corners itself
//     and shows transparency as black.
import { mkdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const PUBLIC = fileURLToPath(new URL('../public/', import.meta.url));
const OUT = `${PUBLIC}icons/`;
const ANY_SIZES = [48, 72, 96, 128, 144, 152, 192, 256, 384, 512];
const MASKABLE_SIZES = [192, 512];
const BLUE = '#2454c6';

/** The play mark in a 32-unit box centred on (16,16), scaled by `scale` around the centre. */
const mark = (scale) => `<g transform="translate(16 16) scale(${scale}) translate(-16 -16)"><path d="M12 9v14l11-7z" fill="#fff"/></g>`;
// The mark's farthest corner is 8.1 units from the centre; the safe zone's radius is 12.8 units
// (40 % of 32), so any scale up to 1.58 keeps it whole; 1.15 leaves it the favicon's weight.
const fullBleed = (scale) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${BLUE}"/>${mark(scale)}</svg>`;

const favicon = await readFile(`${PUBLIC}favicon.svg`, 'utf8');
const jobs = [
  ...ANY_SIZES.map((size) => ({ file: `icon-${size}.png`, size, svg: favicon })),
  ...MASKABLE_SIZES.map((size) => ({ file: `maskable-${size}.png`, size, svg: fullBleed(1.15) })),
  { file: 'apple-touch-icon.png', size: 180, svg: fullBleed(1.3) },
];

await mkdir(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.SVCTEST_CHROMIUM ?? '/usr/bin/chromium', headless: true });
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, svg } of jobs) {
    await page.setViewportSize({ width: size, height: size });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" style="display:block" `);
    await page.setContent(`<!doctype html><html><body style="margin:0;background:transparent">${sized}</body></html>`);
    await page.screenshot({ path: `${OUT}${file}`, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    console.log(`web/public/icons/${file}`);
  }
} finally {
  await browser.close();
}
