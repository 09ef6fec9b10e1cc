import Router from '@koa/router';
import test from 'ava';
import { AppError } from '../../../errors/app-error.js';
import type { HttpState } from '../../../gateways/http/state.js';
import { ALLOWED_ORIGIN, buildApp, waitFor, type TestApp } from './fixtures.js';

const SECRET_DETAIL = 'password authentication failed for user "svc_admin" at 10.0.0.7';

let harness: TestApp;
let baseUrl: string;

test.before(async () => {
  harness = buildApp();
  const router = new Router<HttpState>();
  router.get('/test/conflict', () => {
    throw new AppError('conflict', 'room name already taken');
  });
  router.post('/test/invalid', () => {
    throw AppError.invalid([
      { key: 'name', message: 'must not be empty' },
      { key: 'maxMembers', message: 'must be at most 10000' },
    ]);
  });
  router.get('/test/crash', (ctx) => {
    // A failed handler's own headers must not leak onto the error response.
    ctx.set('Set-Cookie', 'session=half-made');
    throw new Error(SECRET_DETAIL);
  });
  router.get('/test/upstream', () => {
    throw new AppError('bad_gateway', 'the upstream host z. could not be resolved (ENOTFOUND)');
  });
  router.get('/test/unavailable', () => {
    throw new AppError('unavailable', 'the database cannot be reached');
  });
  router.get('/test/http-error', (ctx) => {
    ctx.throw(400, 'request body is not valid JSON');
  });
  harness.app.use(router.routes());
  baseUrl = await harness.listen();
});

test.after.always(async () => {
  await harness.close();
});

async function getJson(path: string, init: RequestInit = {}): Promise<{ res: Response; body: Record<string, unknown> }> {
  const res = await fetch(baseUrl + path, init);
  return { res, body: (await res.json()) as Record<string, unknown> };
}

function accessLine(requestId: string | null): Promise<Record<string, unknown>> {
  return waitFor(`the access log line of ${requestId}`, () =>
    harness.lines.find((entry) => entry.requestId === requestId && entry.msg === 'http request'),
  );
}

test('an unknown route answers 404 not_found in the error shape with a matching request id', async (t) => {
  const { res, body } = await getJson('/no/such/thing?token=abc');
  t.is(res.status, 404);
  t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
  const requestId = res.headers.get('x-request-id');
  t.truthy(requestId);
  t.deepEqual(body, { requestId, status: 404, code: 'not_found', message: 'no route for GET /no/such/thing' });
});

test('a thrown AppError keeps its status, code and message', async (t) => {
  const { res, body } = await getJson('/test/conflict');
  t.is(res.status, 409);
  t.deepEqual(body, { requestId: res.headers.get('x-request-id'), status: 409, code: 'conflict', message: 'room name already taken' });
});

test('a validation AppError lists its field issues', async (t) => {
  const { res, body } = await getJson('/test/invalid', { method: 'POST' });
  t.is(res.status, 400);
  t.is(body.code, 'invalid_argument');
  t.is(body.message, 'name: must not be empty (and 1 more)');
  t.deepEqual(body.issues, [
    { key: 'name', message: 'must not be empty' },
    { key: 'maxMembers', message: 'must be at most 10000' },
  ]);
});

test('a sane incoming X-Request-Id is used for the header, the body and the logs', async (t) => {
  const { res, body } = await getJson('/test/conflict', { headers: { 'X-Request-Id': 'edge-7f3a.1_b' } });
  t.is(res.headers.get('x-request-id'), 'edge-7f3a.1_b');
  t.is(body.requestId, 'edge-7f3a.1_b');
  // The access line is written when the response has finished, which may be just after
  // the client has read it.
  const line = await accessLine('edge-7f3a.1_b');
  t.is(line.path, '/test/conflict');
});

test('an unsafe or oversized incoming X-Request-Id is replaced by a generated one', async (t) => {
  for (const unsafe of ['has space', 'a'.repeat(129), 'new\\nline', '<script>']) {
    const { res, body } = await getJson('/test/conflict', { headers: { 'X-Request-Id': unsafe } });
    const id = res.headers.get('x-request-id');
    t.not(id, unsafe);
    t.regex(id ?? '', /^[0-9a-f-]{36}$/);
    t.is(body.requestId, id);
  }
});

test('an unexpected error answers 500 internal without its details and logs them with the request id', async (t) => {
  const { res, body } = await getJson('/test/crash');
  t.is(res.status, 500);
  const requestId = res.headers.get('x-request-id');
  t.deepEqual(body, {
    requestId,
    status: 500,
    code: 'internal',
    message: 'internal error; quote the request id when reporting it',
  });
  t.false(JSON.stringify(body).includes('svc_admin'));
  t.is(res.headers.get('set-cookie'), null);

  const logged = harness.lines.find((line) => line.requestId === requestId && line.level === 50);
  t.truthy(logged, 'the 500 is logged at error level');
  t.is((logged?.err as { message?: string } | undefined)?.message, SECRET_DETAIL);
});

test('a Koa HTTP error is mapped onto the stable codes', async (t) => {
  const { res, body } = await getJson('/test/http-error');
  t.is(res.status, 400);
  t.is(body.code, 'invalid_argument');
  t.is(body.message, 'request body is not valid JSON');
});

test('a wrong method on a known route answers 405 with Allow, in the error shape', async (t) => {
  const { res, body } = await getJson('/health/live', { method: 'DELETE' });
  t.is(res.status, 405);
  t.regex(res.headers.get('allow') ?? '', /GET/);
  t.is(body.code, 'not_found');
  t.is(body.requestId, res.headers.get('x-request-id'));
});

test('an error answered to an allowed origin keeps the CORS headers so the browser can read it', async (t) => {
  const { res, body } = await getJson('/test/conflict', { headers: { Origin: ALLOWED_ORIGIN } });
  t.is(res.status, 409);
  t.is(res.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
  t.is(res.headers.get('access-control-allow-credentials'), 'true');
  t.regex(res.headers.get('access-control-expose-headers') ?? '', /x-request-id/i);
  t.is(body.code, 'conflict');
});

test('the access log has one line per request with method, path, status, duration and no query string', async (t) => {
  const { res } = await getJson('/no/such/place?token=s3cr3t', { headers: { Authorization: 'Bearer abc.def' } });
  const requestId = res.headers.get('x-request-id');
  const line = await accessLine(requestId);
  t.like(line, { method: 'GET', path: '/no/such/place', status: 404, route: '(unmatched)' });
  t.is(typeof line?.durationMs, 'number');
  const text = JSON.stringify(harness.lines.filter((entry) => entry.requestId === requestId));
  t.false(text.includes('s3cr3t'));
  t.false(text.includes('abc.def'));
});

test('the access log shows a media path\'s signed grant as <grant>', async (t) => {
  const res = await fetch(`${baseUrl}/media/proxy/eyJncmFudCI6MX0.c2lnbmF0dXJl/movie.mp4`);
  const line = await accessLine(res.headers.get('x-request-id'));
  t.like(line, { path: '/media/proxy/<grant>/movie.mp4' });
  t.false(JSON.stringify(line).includes('c2lnbmF0dXJl'));
});

test('another server failing (502 bad_gateway) or a dependency out of reach (503 unavailable) is logged at warn: the error log holds this service\'s own faults', async (t) => {
  for (const [path, status] of [['/test/upstream', 502], ['/test/unavailable', 503]] as const) {
    const { res } = await getJson(path);
    t.is(res.status, status);
    const requestId = res.headers.get('x-request-id');
    const logged = await waitFor(`the problem line of ${requestId}`, () => harness.lines.find((line) => line.requestId === requestId && line.msg === 'request failed'));
    t.is(logged.level, 40, path);
    t.false(harness.lines.some((line) => line.requestId === requestId && line.level === 50), path);
  }
});
