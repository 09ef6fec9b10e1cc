/**
 * The same user steps as reverse-proxy.test.ts, through Caddy running deploy/caddy/Caddyfile
 * (rendered by caddy-proxy.ts) in front of two gateways, plus `caddy validate` and `caddy fmt`
 * on the documented file. Debian has no caddy package: npm test builds one (infra/install.sh
 * --containers) and names it in SVCTEST_CADDY; else a caddy on PATH is used; without either,
 * these are skipped.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import test from 'ava';
import { CADDYFILE, caddyBinary, startCaddy } from './caddy-proxy.js';
import { clientAddress, foreignOriginRefused, grpcCalls, httpOnBothGateways, livestream, proxiedWorld, rangedRead, roomSocket, type World } from './proxy-scenarios.js';

const execFileAsync = promisify(execFile);
const caddy = caddyBinary();
const run = caddy ? test : test.skip;
const serial = caddy ? test.serial : test.serial.skip;

let world: World | undefined;

if (caddy) {
  test.before(async () => {
    world = await proxiedWorld('caddy_proxy', (targets) => startCaddy(caddy, targets));
  });
  test.after.always(async () => {
    await world?.close();
  });
}

run('the documented Caddyfile validates and is formatted as caddy fmt writes it', async (t) => {
  const validated = await execFileAsync(caddy!, ['validate', '--config', CADDYFILE, '--adapter', 'caddyfile'], { timeout: 30_000 });
  t.regex(validated.stdout + validated.stderr, /Valid configuration/);
  const formatted = await execFileAsync(caddy!, ['fmt', CADDYFILE], { timeout: 30_000 });
  t.is(formatted.stdout.trimEnd(), (await readFile(CADDYFILE, 'utf8')).trimEnd());
});
serial('HTTP through Caddy: sign-up, a room, the web client, requests served by both gateways', (t) => httpOnBothGateways(t, world!));
run('a browser-like room socket through Caddy is accepted for the page origin and receives a chat message sent over gRPC', (t) => roomSocket(t, world!));
run('a page at another origin is refused through Caddy as it is without it', (t) => foreignOriginRefused(t, world!));
run('gRPC through Caddy (h2c upstream): health SERVING and unary calls', (t) => grpcCalls(t, world!));
run('the media proxy through Caddy: a Range read is 206 with exactly the asked bytes', (t) => rangedRead(t, world!));
run('a livestream through Caddy: HTTP-FLV streams and the HLS playlist lists an MPEG-TS segment', (t) => livestream(t, world!));
run('the client address is the one Caddy saw, whatever X-Forwarded-For the client wrote', (t) => clientAddress(t, world!));
