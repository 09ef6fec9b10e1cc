/**
 * svc behind Debian's nginx, configured by the very file operators are told to use
 * (deploy/nginx/svc.conf, rendered with this machine's addresses by nginx-proxy.ts): nginx
 * terminates TLS for `watch.example.com` and `grpc.watch.example.com` in front of two gateways
 * on one database (`server.trust_proxy` with `trusted_proxies` 127.0.0.1/32, nginx's address).
 * Through it: the HTTP API on both gateways, a browser-like room socket (Origin checked against
 * the Host nginx passes), gRPC with grpc_pass (health and unary calls), a ranged read of the
 * media proxy, a livestream's HTTP-FLV and HLS paths, and a client address that the client's own
 * X-Forwarded-For cannot choose. Decisions: docs/2026-11-26-reverse-proxy.md.
 */
import test from 'ava';
import { startReverseProxy } from './nginx-proxy.js';
import { clientAddress, foreignOriginRefused, grpcCalls, httpOnBothGateways, livestream, proxiedWorld, rangedRead, roomSocket, type World } from './proxy-scenarios.js';

let world: World | undefined;

test.before(async () => {
  world = await proxiedWorld('nginx_proxy', startReverseProxy);
});

test.after.always(async () => {
  await world?.close();
});

// Serial, so ava runs it before the others: least_conn would steer every request away from a
// gateway holding another test's socket or stream.
test.serial('HTTP through nginx: sign-up, a room, the web client, requests served by both gateways', (t) => httpOnBothGateways(t, world!));
test('a browser-like room socket through nginx is accepted for the page origin and receives a chat message sent over gRPC', (t) => roomSocket(t, world!));
test('a page at another origin is refused through nginx as it is without it', (t) => foreignOriginRefused(t, world!));
test('gRPC through nginx (grpc_pass, h2c upstream): health SERVING and unary calls', (t) => grpcCalls(t, world!));
test('the media proxy through nginx: a Range read is 206 with exactly the asked bytes', (t) => rangedRead(t, world!));
test('a livestream through nginx: HTTP-FLV streams and the HLS playlist lists an MPEG-TS segment', (t) => livestream(t, world!));
test('the client address is the one nginx saw, whatever X-Forwarded-For the client wrote', (t) => clientAddress(t, world!));
