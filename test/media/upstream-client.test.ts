/**
 * SSRF protection and bounded waits of the media proxy's upstream client, against a real nginx
 * on loopback: loopback is refused unless an operator allows it, by address and by a host name
 * that resolves to it, at the first hop and at a redirect hop; redirects are limited; an
 * upstream that never answers ends in `deadline_exceeded`. Nothing here connects anywhere but 127.0.0.1.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { isAppError } from '../../errors/app-error.js';
import { AddressPolicy } from '../../media/proxy/address-policy.js';
import { UpstreamClient } from '../../media/proxy/upstream-client.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import { randomFile } from './media-bed.js';

let nginx: Nginx;
let silent: Server;
let silentUrl: string;

test.before(async () => {
  const { dir } = await randomFile('file.bin', 1000);
  nginx = await startNginx({
    root: dir,
    serverConfig: `
      location = /elsewhere { return 302 http://127.0.0.2:1/file.bin; }
      location = /ipv6 { return 302 http://[::1]:1/file.bin; }
      location = /loop { return 302 /loop; }
      location = /twice { return 302 /once; }
      location = /once { return 302 /file.bin; }
    `,
  });
  // Accepts connections and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
});
test.after.always(async () => {
  await nginx?.stop();
  silent?.closeAllConnections();
  silent?.close();
});

function client(networks: string[], headersTimeoutMs = 5000): UpstreamClient {
  return new UpstreamClient({ policy: new AddressPolicy(networks), headersTimeoutMs, idleTimeoutMs: 5000, maxRedirects: 5 });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (isAppError(err)) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

const signal = (): AbortSignal => AbortSignal.timeout(10_000);

test('loopback is refused without the allowlist, by address and by a name that resolves to it', async (t) => {
  const strict = client([]);
  const byAddress = await refusal(strict.request({ url: `${nginx.url}/file.bin`, signal: signal() }));
  t.is(byAddress.code, 'forbidden');
  t.regex(byAddress.message, /loopback/);
  t.regex(byAddress.message, /media_proxy\.allowed_networks/);
  const byName = await refusal(strict.request({ url: `http://localhost:${nginx.port}/file.bin`, signal: signal() }));
  t.is(byName.code, 'forbidden');
  t.regex(byName.message, /localhost \(.*\): it is a loopback address/);
  const mapped = await refusal(strict.request({ url: `http://[::ffff:127.0.0.1]:${nginx.port}/file.bin`, signal: signal() }));
  t.regex(mapped.message, /loopback/);
  const scheme = await refusal(strict.request({ url: 'file:///etc/passwd', signal: signal() }));
  t.is(scheme.code, 'forbidden');
  strict.close();
});

test('with 127.0.0.1 allowed, a redirect to another loopback address is refused at that hop', async (t) => {
  const allowed = client(['127.0.0.1/32']);
  const ok = await allowed.request({ url: `${nginx.url}/twice`, signal: signal() });
  t.is(ok.status, 200);
  t.is(ok.url, `${nginx.url}/file.bin`);
  ok.body.resume();
  const hop = await refusal(allowed.request({ url: `${nginx.url}/elsewhere`, signal: signal() }));
  t.is(hop.code, 'forbidden');
  t.regex(hop.message, /127\.0\.0\.2: it is a loopback address/);
  const ipv6 = await refusal(allowed.request({ url: `${nginx.url}/ipv6`, signal: signal() }));
  t.regex(ipv6.message, /::1: it is a loopback address/);
  allowed.close();
});

test('more than five redirects end in bad_gateway; an upstream that never answers in deadline_exceeded', async (t) => {
  const allowed = client(['127.0.0.0/8'], 300);
  const loop = await refusal(allowed.request({ url: `${nginx.url}/loop`, signal: signal() }));
  t.is(loop.code, 'bad_gateway');
  t.regex(loop.message, /redirected more than 5 times/);
  const stuck = await refusal(allowed.request({ url: silentUrl, signal: signal() }));
  t.is(stuck.code, 'deadline_exceeded');
  allowed.close();
});

test('a redirect to another origin carries none of the headers bound to the first origin, only the read\'s own; one on the same origin keeps them all', async (t) => {
  const landed: Array<{ at: 'front' | 'other'; headers: IncomingHttpHeaders }> = [];
  const listen = async (server: Server): Promise<string> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const otherUrl = await listen(
    createServer((request, response) => {
      landed.push({ at: 'other', headers: request.headers });
      response.end('other');
    }),
  );
  const frontUrl = await listen(
    createServer((request, response) => {
      const location = request.url === '/away' ? `${otherUrl}/landed` : request.url === '/here' ? '/landed' : undefined;
      if (location) {
        response.writeHead(307, { location }).end();
        return;
      }
      landed.push({ at: 'front', headers: request.headers });
      response.end('front');
    }),
  );
  const allowed = client(['127.0.0.0/8']);
  // What an item or a connector adds: credentials of every spelling, and headers that are not credentials by name.
  const bound: Record<string, string> = { authorization: 'Basic c2VjcmV0', 'x-emby-token': 'emby-token', 'x-alist-token': 'alist', cookie: 'sid=1', referer: 'https://referer.example/', 'x-api-key': 'key' };
  const readHeaders = { range: 'bytes=0-9', 'if-none-match': '"v1"' };
  for (const path of ['/away', '/here']) {
    const reply = await allowed.request({ url: `${frontUrl}${path}`, headers: bound, readHeaders, signal: signal() });
    t.is(reply.status, 200);
    reply.body.resume();
  }
  allowed.close();
  const [other, front] = landed;
  t.is(other?.at, 'other');
  for (const name of Object.keys(bound)) t.is(other?.headers[name], undefined, `${name} does not follow a redirect to another origin`);
  t.is(other?.headers.range, 'bytes=0-9', 'the read\'s Range goes on');
  t.is(other?.headers['if-none-match'], '"v1"');
  t.is(other?.headers['user-agent'], 'svc-media-proxy');
  t.is(front?.at, 'front');
  for (const [name, value] of Object.entries(bound)) t.is(front?.headers[name], value, `${name} follows a redirect on its own origin`);
  t.is(front?.headers.range, 'bytes=0-9');
});
