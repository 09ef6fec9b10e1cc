import test from 'ava';
import { ENDPOINTS } from '../../../contracts/http/index.js';
import { buildOpenApiDocument } from '../../../gateways/http/openapi.js';
import { call, startAccountsBed, type AccountsBed } from '../../accounts/fixtures.js';
import { DocumentSchemas } from './document-schemas.js';

let bed: AccountsBed;
test.before(async () => {
  bed = await startAccountsBed('http-openapi');
});
test.after.always(async () => {
  await bed?.close();
});

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

test('the served document is OpenAPI 3.1 and lists every endpoint the router serves', async (t) => {
  const served = await call<Document>(`${bed.url}/api/openapi.json`, 'GET');
  t.is(served.status, 200);
  t.is(served.body.openapi, '3.1.0');
  t.deepEqual(served.body, JSON.parse(JSON.stringify(buildOpenApiDocument())) as Document);
  for (const endpoint of ENDPOINTS) {
    const operation = served.body.paths[endpoint.path]?.[endpoint.method];
    t.truthy(operation, `${endpoint.method} ${endpoint.path}`);
    t.is(operation?.operationId, endpoint.operationId);
    // Every operation documents its error shape, and non-public ones their bearer token.
    t.truthy(operation?.responses.default?.content, endpoint.operationId);
    t.is(operation?.security !== undefined, endpoint.access !== 'public', endpoint.operationId);
  }
});

test('operation ids are unique and the fixed paths clients depend on are there', (t) => {
  const ids = ENDPOINTS.map((endpoint) => endpoint.operationId);
  t.is(new Set(ids).size, ids.length);
  const routes = new Set(ENDPOINTS.map((endpoint) => `${endpoint.method.toUpperCase()} ${endpoint.path}`));
  for (const route of [
    'POST /api/auth/opaque/register/start',
    'POST /api/auth/opaque/register/finish',
    'POST /api/auth/opaque/login/start',
    'POST /api/auth/opaque/login/finish',
    'POST /api/auth/password/register',
    'POST /api/auth/password/login',
  ]) {
    t.true(routes.has(route), route);
  }
});

test('requests are checked against the same schemas: unknown fields are refused, by name', async (t) => {
  const answer = await call(`${bed.url}/api/auth/password/login`, 'POST', { username: 'someone', password: 'whatever pass', remember: true });
  t.is(answer.status, 400);
  t.is(answer.body.code, 'invalid_argument');
  t.true(JSON.stringify(answer.body.issues).includes('remember'));
});

test('every example body the document gives is one its schema admits', (t) => {
  const schemas = new DocumentSchemas();
  let examples = 0;
  for (const endpoint of ENDPOINTS) {
    for (const [name, value] of Object.entries(endpoint.bodyExamples ?? {})) {
      examples += 1;
      t.true(schemas.admitsBody(endpoint.operationId, value), `${endpoint.operationId} example ${name}`);
    }
  }
  t.true(examples >= 10, `${examples} examples`);
});
