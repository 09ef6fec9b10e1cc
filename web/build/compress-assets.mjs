// Writes `.br` and `.gz` beside every text file of a built web client (the gateway serves them to
// browsers that accept them). Run after `vite build` by infra/build-web.sh:
//   node web/build/compress-assets.mjs <dir>
// Outside the bundler because brotli at its best quality is most of a build's time; here the
// files are compressed in libuv's thread pool, several at once. Source maps are left out: only
// developer tools fetch them.
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const COMPRESSIBLE = /\.(js|css|html|svg|json|wasm)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** @param {string} dir */
export async function compressAssets(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name)).map((entry) => join(entry.parentPath ?? entry.path, entry.name));
  await Promise.all(files.map(async (file) => {
    const content = await readFile(file);
    const [br, gz] = await Promise.all([
      brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzipAsync(content, { level: 9 }),
    ]);
    await Promise.all([writeWhole(`${file}.br`, br), writeWhole(`${file}.gz`, gz)]);
  }));
}

/** The service may be serving the directory: a reader sees the old file or the new one, never half. */
async function writeWhole(path, content) {
  await writeFile(`${path}.tmp`, content);
  await rename(`${path}.tmp`, path);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node web/build/compress-assets.mjs <dir>');
    process.exit(2);
  }
  await compressAssets(dir);
}
