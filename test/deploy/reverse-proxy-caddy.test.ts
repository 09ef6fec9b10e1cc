/**
 * The same user steps as reverse-proxy.test.ts, through Caddy running deploy/caddy/Caddyfile
 * (rendered by caddy-proxy.ts) in front of two gateways, plus `caddy validate` and `caddy fmt`
 * on the documented file. Debian has no caddy package: these run when a caddy binary is on PATH
 * (`go install github.com/caddyserver/caddy/v2/cmd/caddy@v2.8.4` builds one) and are skipped
 * otherwise.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import test from 'ava';
import { selfSigned } from '../fixtures/self-signed.js';
import { CADDYFILE, caddyBinary, startCaddy } from './caddy-proxy.js';
import type { ReverseProxy } from './nginx-proxy.js';
import { GRPC_HOST, startTwoGateways, throughProxy, WEB_HOST } from './proxied-service.js';
import { clientAddress, foreignOriginRefused, grpcCalls, httpOnBothGateways, livestream, rangedRead, roomSocket, startMediaOrigin, type World } from './proxy-scenarios.js';

const execFileAsync = promisify(execFile);
const caddy = caddyBinary();
const run = caddy ? test : test.skip;
const serial = caddy ? test.serial : test.serial.skip;

let world: World;
let proxy: ReverseProxy;

if (caddy) {
  test.before(async () => {
    const [a, b] = await startTwoGateways('caddy_proxy');
    const tls = await selfSigned([WEB_HOST, GRPC_HOST]);
    proxy = await startCaddy(caddy, { http: [new URL(a.url).host, new URL(b.url).host], grpc: [a.grpcAddress, b.grpcAddress], tls });
    world = { a, b, proxied: throughProxy(proxy.port, tls.cert), media: await startMediaOrigin() };
  });
  test.after.always(async () => {
    world?.proxied.close();
    await proxy?.stop();
    await world?.media.server.stop();
    await world?.b.close();
    await world?.a.close();
  });
}

run('the documented Caddyfile validates and is formatted as caddy fmt writes it', async (t) => {
  const validated = await execFileAsync(caddy!, ['validate', '--config', CADDYFILE, '--adapter', 'caddyfile'], { timeout: 30_000 });
  t.regex(validated.stdout + validated.stderr, /Valid configuration/);
  const formatted = await execFileAsync(caddy!, ['fmt', CADDYFILE], { timeout: 30_000 });
  t.is(formatted.stdout.trimEnd(), (await readFile(CADDYFILE, 'utf8')).trimEnd());
});
serial('HTTP through Caddy: sign-up, a room, the web client, requests served by both gateways', (t) => httpOnBothGateways(t, world));
run('a browser-like room socket through Caddy is accepted for the page origin and receives a chat message sent over gRPC', (t) => roomSocket(t, world));
run('a page at another origin is refused through Caddy as it is without it', (t) => foreignOriginRefused(t, world));
run('gRPC through Caddy (h2c upstream): health SERVING and unary calls', (t) => grpcCalls(t, world));
run('the media proxy through Caddy: a Range read is 206 with exactly the asked bytes', (t) => rangedRead(t, world));
run('a livestream through Caddy: HTTP-FLV streams and the HLS playlist lists an MPEG-TS segment', (t) => livestream(t, world));
run('the client address is the one Caddy saw, whatever X-Forwarded-For the client wrote', (t) => clientAddress(t, world));
