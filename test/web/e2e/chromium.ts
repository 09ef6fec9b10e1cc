/**
 * Which Chromium the browser tests run and with which launch flags: shared by browser.ts and the
 * run's browser keeper, which launches only these (it listens on loopback, and a launch request
 * must not name a program or a flag of its own).
 */
export const CHROMIUM_PATH = process.env.SVCTEST_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_FLAGS = {
  // Containers often have a tiny /dev/shm; Chromium then crashes tabs under load.
  smallShm: '--disable-dev-shm-usage',
  autoplay: '--autoplay-policy=no-user-gesture-required',
  // A fake microphone and camera (a beeping tone), granted without a prompt.
  fakeDevices: '--use-fake-device-for-media-stream',
  fakePrompt: '--use-fake-ui-for-media-stream',
} as const;

export type ChromiumFlag = (typeof CHROMIUM_FLAGS)[keyof typeof CHROMIUM_FLAGS];

const KNOWN_FLAGS = new Set<string>(Object.values(CHROMIUM_FLAGS));

export const isChromiumFlag = (flag: unknown): flag is ChromiumFlag => typeof flag === 'string' && KNOWN_FLAGS.has(flag);

/** What a test file asks the keeper for (POST /), and its answer. */
export interface BrowserRequest {
  args: ChromiumFlag[];
}

export interface BrowserAnswer {
  wsEndpoint?: string;
  error?: string;
}
