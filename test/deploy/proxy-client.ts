/**
 * A client on the far side of the reverse proxy: it speaks https to the proxy's host names
 * (resolved to 127.0.0.1 here, as DNS would point them at the proxy), trusts the test
 * certificate, and connects from a loopback address of its own. That address matters: the
 * gateways trust 127.0.0.1 (nginx), so a client that also came from 127.0.0.1 would count as a
 * proxy hop and the X-Forwarded-For entry left of it would be believed. A real client is never
 * on the proxy's address; 127.x.y.z stands in for one.
 */
import { randomInt } from 'node:crypto';
import { Agent, request } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';

export interface ProxyAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as JSON (empty object for an empty body). */
  json<T = Record<string, unknown>>(): T;
}

export interface ProxyClient {
  /** The loopback address this client connects from: what the service must see as the client. */
  address: string;
  agent: Agent;
  /** A request to `origin` + `path`; a JSON body is sent as such. */
  call(method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): Promise<ProxyAnswer>;
  /** The status, headers and first `count` bytes of a GET; the rest of the response is abandoned. */
  head(path: string, count: number): Promise<Omit<ProxyAnswer, 'json'>>;
}

/** Every name resolves to 127.0.0.1, where the proxy listens. */
const toLoopback: LookupFunction = (_hostname, options, callback) => {
  if (options.all) (callback as unknown as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

export function proxyClient(origin: string, ca: Buffer): ProxyClient {
  const address = `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(2, 255)}`;
  const agent = new Agent({ ca, lookup: toLoopback, localAddress: address, keepAlive: true });
  const send = (method: string, path: string, headers: Record<string, string>, body: Buffer | undefined, limit: number): Promise<Omit<ProxyAnswer, 'json'>> =>
    new Promise((resolve, reject) => {
      const req = request(new URL(path, origin), { method, agent, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        let total = 0;
        const done = (): void => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          total += chunk.length;
          if (total >= limit) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', reject);
      });
      req.setTimeout(20_000, () => req.destroy(new Error(`${method} ${path} through the proxy: no answer within 20 s`)));
      req.on('error', reject);
      req.end(body);
    });
  return {
    address,
    agent,
    async call(method, path, options = {}) {
      const body = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
      const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers };
      const answer = await send(method, path, headers, body, Number.POSITIVE_INFINITY);
      return { ...answer, json: <T>() => (answer.body.length > 0 ? JSON.parse(answer.body.toString('utf8')) : {}) as T };
    },
    head: (path, count) => send('GET', path, {}, undefined, count),
  };
}
