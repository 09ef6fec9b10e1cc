/**
 * With `server.trust_proxy`, Koa believes X-Forwarded-Proto and X-Forwarded-Host from any
 * peer; the client-address middleware drops them unless the request came straight from a
 * proxy in `server.trusted_proxies`, so a client reaching the service directly cannot choose
 * the scheme and host the service builds URLs from (the livestream publish URL, links).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import { clientAddress } from '../../../gateways/http/client-address.js';
import type { HttpState } from '../../../gateways/http/state.js';
import { ClientAddresses } from '../../../net/client-address.js';
import { httpServer } from '../../../gateways/http/request-listener.js';

interface Seen {
  host: string;
  protocol: string;
  ip: string;
}

/** A Koa app as the gateway sets it up (`proxy` on, the middleware first) answering what it sees. */
async function serve(trusted: string[]): Promise<{ url: string; close: () => void }> {
  const app = new Koa<HttpState>();
  app.proxy = true;
  app.use(clientAddress(new ClientAddresses({ trust_proxy: true, trusted_proxies: trusted })));
  app.use((ctx) => {
    ctx.body = { host: ctx.host, protocol: ctx.protocol, ip: ctx.ip } satisfies Seen;
  });
  const server = httpServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

const forwarded = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' };

test('a peer that is not a trusted proxy cannot choose the host, scheme or address', async (t) => {
  const app = await serve(['10.0.0.0/8']);
  t.teardown(app.close);
  const seen = (await (await fetch(app.url, { headers: forwarded })).json()) as Seen;
  t.is(seen.host, new URL(app.url).host);
  t.is(seen.protocol, 'http');
  t.is(seen.ip, '127.0.0.1');
});

test('a trusted proxy forwards the host, scheme and client address', async (t) => {
  const app = await serve(['127.0.0.1/32']);
  t.teardown(app.close);
  const seen = (await (await fetch(app.url, { headers: forwarded })).json()) as Seen;
  t.is(seen.host, 'evil.example');
  t.is(seen.protocol, 'https');
  t.is(seen.ip, '203.0.113.9');
});
