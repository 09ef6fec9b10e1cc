import test from 'ava';
import { ALLOWED_ORIGIN, buildApp, waitFor, type TestApp } from './fixtures.js';

let harness: TestApp;
let baseUrl: string;
let metricsUrl: string;

test.before(async () => {
  harness = buildApp({ corsAllowedOrigins: [ALLOWED_ORIGIN, 'http://localhost:5173'] });
  baseUrl = await harness.listen();
  metricsUrl = await harness.listenMetrics();
});

test.after.always(async () => {
  await harness.close();
});

function preflight(path: string, origin?: string): Promise<Response> {
  return fetch(baseUrl + path, {
    method: 'OPTIONS',
    headers: {
      ...(origin ? { Origin: origin } : {}),
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
    },
  });
}

test('a preflight from an allowed origin to an API path answers 204 with that origin', async (t) => {
  const res = await preflight('/api/auth/opaque/login/start', ALLOWED_ORIGIN);
  t.is(res.status, 204);
  t.is(res.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
  t.is(res.headers.get('access-control-allow-credentials'), 'true');
  t.regex(res.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
  t.regex(res.headers.get('access-control-allow-headers') ?? '', /content-type/);
  t.regex(res.headers.get('vary') ?? '', /Origin/);
  t.truthy(res.headers.get('access-control-max-age'));
});

test('each allowed origin is echoed back as itself', async (t) => {
  const res = await preflight('/api/auth/opaque/login/start', 'http://localhost:5173');
  t.is(res.headers.get('access-control-allow-origin'), 'http://localhost:5173');
});

test('a preflight from a disallowed origin gets no Access-Control-Allow-Origin', async (t) => {
  for (const origin of ['https://evil.example.com', 'https://watch.example.com.evil.net', 'http://watch.example.com', 'null']) {
    const res = await preflight('/api/auth/opaque/login/start', origin);
    t.is(res.headers.get('access-control-allow-origin'), null, origin);
    t.is(res.headers.get('access-control-allow-credentials'), null, origin);
    t.not(res.status, 204, origin);
  }
});

test('a request without Origin gets no CORS headers', async (t) => {
  const res = await preflight('/api/auth/opaque/login/start');
  t.is(res.headers.get('access-control-allow-origin'), null);
  const plain = await fetch(`${baseUrl}/health/live`);
  t.is(plain.headers.get('access-control-allow-origin'), null);
});

test('a simple request from an allowed origin carries the origin back', async (t) => {
  const res = await fetch(`${baseUrl}/health/live`, { headers: { Origin: ALLOWED_ORIGIN } });
  t.is(res.status, 200);
  t.deepEqual(await res.json(), { status: 'live' });
  t.is(res.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
});

test('an origin with a path in the allowed list is refused at construction', (t) => {
  const error = t.throws(() => buildApp({ corsAllowedOrigins: ['https://watch.example.com/app'] }));
  t.regex(error?.message ?? '', /server\.cors_allowed_origins\[0\]/);
});

async function metricsText(): Promise<string> {
  const res = await fetch(`${metricsUrl}/metrics`);
  return res.text();
}

test('the public port serves no /metrics: it is on the metrics listener', async (t) => {
  const res = await fetch(`${baseUrl}/metrics`);
  t.is(res.status, 404);
  t.like(await res.json(), { status: 404, code: 'not_found' });
  t.is((await fetch(`${metricsUrl}/metrics`)).status, 200);
});

test('/metrics exposes request counts by route template, status and method', async (t) => {
  const contentType = (await fetch(`${metricsUrl}/metrics`)).headers.get('content-type') ?? '';
  t.regex(contentType, /^text\/plain; version=0\.0\.4/);

  await (await fetch(`${baseUrl}/health/live`)).text();
  await (await fetch(`${baseUrl}/rooms/4f1c9a/nothing-here`)).text();

  // Each request is counted once its response has finished, just after the client has it.
  const text = await waitFor('the requests to show in /metrics', async () => {
    const body = await metricsText();
    const counted =
      /^http_requests_total\{method="GET",route="\/health\/live",status="200"\} [1-9]/m.test(body) &&
      /^http_requests_total\{method="GET",route="\(unmatched\)",status="404"\} [1-9]/m.test(body);
    return counted ? body : undefined;
  });
  t.regex(text, /^http_request_duration_seconds_bucket\{.*route="\/health\/live".*\} \d+/m);
  t.regex(text, /^process_cpu_user_seconds_total /m);
  t.false(text.includes('4f1c9a'), 'raw paths never become labels');
});
