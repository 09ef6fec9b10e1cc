/**
 * One Chromium per set of launch flags for a whole test run, shared by every browser test file:
 * `npm test` starts this beside the throwaway stack (infra/test.sh) and the files connect to the
 * browser over its WebSocket (browser.ts, SVCTEST_BROWSERS_URL). Each person still gets a fresh
 * context, so files stay apart as before; what is saved is a launch and a close per file (about
 * 2.5 s each on a busy 2-core machine, 33 files a run).
 *
 *   node dist/test/web/e2e/browser-keeper.js <url-file>
 * writes http://127.0.0.1:<port> to <url-file> once it listens; POST / with {args} (flags of
 * CHROMIUM_FLAGS only) answers {wsEndpoint} of CHROMIUM_PATH with those flags, launched the first
 * time it is asked for. SIGTERM closes the browsers and exits; so does the end of its parent
 * (stdin closes).
 */
import { rename, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import { chromium, type BrowserServer } from 'playwright-core';
import { CHROMIUM_PATH, isChromiumFlag, type BrowserAnswer, type BrowserRequest } from './chromium.js';

const servers = new Map<string, Promise<BrowserServer>>();

function serverFor({ args }: BrowserRequest): Promise<BrowserServer> {
  const key = JSON.stringify([...new Set(args)].sort());
  let server = servers.get(key);
  if (!server) {
    server = chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args });
    // A launch that failed is tried again by the next file rather than failing every one.
    server.catch(() => servers.delete(key));
    servers.set(key, server);
  }
  return server;
}

async function readRequest(request: IncomingMessage): Promise<BrowserRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { args?: unknown };
  if (!Array.isArray(body.args)) throw new Error('expected {args: [flags]}');
  const args: unknown[] = body.args;
  const unknown = args.find((flag) => !isChromiumFlag(flag));
  if (unknown !== undefined) throw new Error(`args: ${JSON.stringify(unknown)} is not one of the test flags (test/web/e2e/chromium.ts)`);
  return { args: args.filter(isChromiumFlag) };
}

const http = createServer((request, response) => {
  void readRequest(request)
    .then(serverFor)
    .then(
      (server) => ({ status: 200, answer: { wsEndpoint: server.wsEndpoint() } satisfies BrowserAnswer }),
      (error: unknown) => ({ status: 500, answer: { error: error instanceof Error ? error.message : String(error) } satisfies BrowserAnswer }),
    )
    .then(({ status, answer }) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
});

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  http.close();
  await Promise.allSettled([...servers.values()].map(async (server) => (await server).close()));
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
process.stdin.on('end', () => void stop()).resume();

const urlFile = process.argv[2];
if (!urlFile) throw new Error('usage: browser-keeper.js <url-file>');
http.listen(0, '127.0.0.1', () => {
  const address = http.address();
  if (address === null || typeof address === 'string') throw new Error('the keeper has no TCP address');
  // Written whole, then renamed: the script waiting for the file never reads half of it.
  void writeFile(`${urlFile}.partial`, `http://127.0.0.1:${address.port}\n`).then(() => rename(`${urlFile}.partial`, urlFile));
});
