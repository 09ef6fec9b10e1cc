/**
 * Every string a request can carry, walked from the API document itself: each operation's body
 * fields, query and path parameters get a NUL and a lone surrogate, and the answer must be a
 * refusal that is never a 500 (PostgreSQL refuses both, so a field that reached it unchecked
 * would answer 500). Body and query fields must be refused with 400 invalid_argument naming
 * the field. Headers are left out: HTTP cannot carry either (Node refuses NUL in a header, and
 * header values are Latin-1). The gRPC sign-in calls get the same test.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { ENDPOINTS } from '../../../contracts/http/index.js';
import { buildOpenApiDocument } from '../../../gateways/http/openapi.js';
import { startGrpcBed, refused, uniqueIp, type GrpcBed } from '../grpc/fixtures.js';
import type { Member } from '../bed.js';

type Schema = {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  additionalProperties?: Schema | boolean;
  minimum?: number;
  minItems?: number;
  default?: unknown;
};
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const BAD = [
  { name: 'NUL', value: 'a\u0000b' },
  { name: 'a lone surrogate', value: 'a\ud800b' },
];

const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Document;

function resolve(schema: Schema): Schema {
  let current = schema;
  while (current.$ref) current = document.components.schemas[current.$ref.split('/').pop() ?? ''] ?? {};
  return current;
}

function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  return undefined;
}

/** The first alternative of a union that is an object, else the first. */
function branch(schema: Schema): Schema {
  const resolved = resolve(schema);
  const options = resolved.anyOf ?? resolved.oneOf;
  if (!options) return resolved;
  return resolve(options.find((option) => typeOf(resolve(option)) === 'object') ?? options[0] ?? {});
}

/** A plain value of the schema's shape: only so the request is well-formed around the field under test. */
function sample(schema: Schema, depth = 0): unknown {
  const s = branch(schema);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  switch (typeOf(s)) {
    case 'string':
      return 'x';
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return s.items && (s.minItems ?? 0) > 0 && depth < 4 ? [sample(s.items, depth + 1)] : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sample(s.properties?.[name] ?? {}, depth + 1);
      return out;
    }
    default:
      return 'x';
  }
}

/** Every string field of a body, as a path of keys (numbers for array items), with a body holding `value` there. */
function stringFields(schema: Schema, depth = 0): Array<{ path: Array<string | number>; build: (value: unknown) => unknown }> {
  const s = branch(schema);
  const type = typeOf(s);
  if (type === 'string' && s.const === undefined) return [{ path: [], build: (value) => value }];
  if (depth > 4) return [];
  if (type === 'array' && s.items) {
    return stringFields(s.items, depth + 1).map((field) => ({ path: [0, ...field.path], build: (value: unknown) => [field.build(value)] }));
  }
  if (type !== 'object') return [];
  const fields: Array<{ path: Array<string | number>; build: (value: unknown) => unknown }> = [];
  const base = sample(s) as Record<string, unknown>;
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    for (const field of stringFields(property, depth + 1)) {
      fields.push({ path: [name, ...field.path], build: (value) => ({ ...base, [name]: field.build(value) }) });
    }
  }
  if (typeof s.additionalProperties === 'object') {
    const values = s.additionalProperties;
    for (const field of stringFields(values, depth + 1)) fields.push({ path: ['k', ...field.path], build: (value) => ({ ...base, k: field.build(value) }) });
  }
  return fields;
}

let g: GrpcBed;
let admin: Member;
let roomId: string;

test.before(async () => {
  g = await startGrpcBed('unstorable_text');
  admin = await g.bed.admin('walker', 'root');
  const room = await g.bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Walked' }, admin.token);
  roomId = room.body.room.id;
});
test.after.always(async () => {
  await g?.close();
});

/** Path parameters that pass their schemas, so a body or query field is what gets judged. */
function pathValues(): Record<string, string> {
  return {
    roomId,
    userId: admin.userId,
    mediaId: '00000000-0000-4000-8000-000000000000',
    messageId: '1',
    notificationId: '1',
    reviewId: 'review-1',
    sessionId: admin.sessionId,
    key: 'chat.maxPinnedMessagesPerRoom',
    group: 'chat',
    instance: 'github',
    id: 'passkey',
  };
}

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => values[name] ?? 'x');
}

/**
 * A string percent-encoded for a path or query, a lone surrogate as the bytes UTF-8 would give
 * it (encodeURIComponent refuses to write it, and URLSearchParams sends U+FFFD instead).
 */
function segment(value: string): string {
  return value
    .split('')
    .map((char) => {
      const code = char.charCodeAt(0);
      if (code >= 0xd800 && code <= 0xdfff) return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
      return encodeURIComponent(char);
    })
    .join('');
}

interface Refusal {
  status: number;
  body: { code?: string; issues?: Array<{ key: string; message: string }> };
}

async function send(method: string, path: string, body: unknown, query?: string): Promise<Refusal> {
  const url = `${g.bed.url}${path}${query ? `?${query}` : ''}`;
  const answer = await fetch(url, {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${admin.token}`,
      'x-forwarded-for': uniqueIp(),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    // JSON.stringify writes a lone surrogate as the escape \ud800, which JSON.parse on the server turns back into one.
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text ? (JSON.parse(text) as Refusal['body']) : {} };
}

test('a NUL or a lone surrogate in any body or query field of any operation is a 400 naming the field', async (t) => {
  const problems: string[] = [];
  let tried = 0;
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const path = fillPath(template, pathValues());
      const bodySchema = operation.requestBody?.content['application/json'].schema;
      for (const bad of BAD) {
        for (const field of bodySchema ? stringFields(bodySchema) : []) {
          tried += 1;
          // A settings group names its fields by setting key (<group>.<name>: endpoint.bodyIssuePrefix).
          const prefix = ENDPOINTS.find((endpoint) => endpoint.operationId === operation.operationId)?.bodyIssuePrefix;
          const key = [prefix, ...field.path.map(String)].filter((part) => part !== undefined).join('.') || 'body';
          const answer = await send(method, path, field.build(bad.value));
          if (answer.status !== 400 || answer.body.code !== 'invalid_argument' || !answer.body.issues?.some((issue) => issue.key === key)) {
            problems.push(`${operation.operationId} body ${key} with ${bad.name}: ${answer.status} ${JSON.stringify(answer.body.issues ?? answer.body)}`);
          }
        }
        for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'query' && typeOf(branch(p.schema)) === 'string')) {
          tried += 1;
          const answer = await send(method, path, bodySchema ? sample(bodySchema) : undefined, `${parameter.name}=${segment(bad.value)}`);
          if (answer.status !== 400 || !answer.body.issues?.some((issue) => issue.key === parameter.name)) {
            problems.push(`${operation.operationId} query ${parameter.name} with ${bad.name}: ${answer.status} ${JSON.stringify(answer.body.issues ?? answer.body)}`);
          }
        }
      }
    }
  }
  t.true(tried > 200, `only ${tried} fields tried`);
  t.deepEqual(problems, []);
});

test('a NUL or a lone surrogate in any path parameter is refused, never with a 500', async (t) => {
  const problems: string[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const bodySchema = operation.requestBody?.content['application/json'].schema;
      for (const parameter of (operation.parameters ?? []).filter((p) => p.in === 'path')) {
        for (const bad of BAD) {
          const path = fillPath(template, { ...pathValues(), [parameter.name]: segment(bad.value) });
          const answer = await send(method, path, bodySchema ? sample(bodySchema) : undefined);
          // 404 is a fair answer too (no route has a NUL in a fixed segment), as is 400 naming it.
          if (answer.status >= 500 || answer.status < 400) problems.push(`${operation.operationId} path ${parameter.name} with ${bad.name}: ${answer.status}`);
        }
      }
    }
  }
  t.deepEqual(problems, []);
});

test('the gRPC sign-in calls refuse a NUL in any string field with INVALID_ARGUMENT naming it', async (t) => {
  const client = g.client.as({ forwardedFor: uniqueIp() });
  const nul = 'a\u0000b';
  const cases: Array<[string, Promise<unknown>, string]> = [
    ['SignInWithPassword username', client.auth.SignInWithPassword({ username: nul, password: 'correct horse battery staple' }), 'username'],
    ['SignInWithPassword password', client.auth.SignInWithPassword({ username: admin.username, password: nul }), 'password'],
    ['StartOpaqueLogin username', client.auth.StartOpaqueLogin({ username: nul, startLoginRequest: 'x' }), 'username'],
    ['FinishOpaqueLogin loginId', client.auth.FinishOpaqueLogin({ loginId: nul, finishLoginRequest: 'x' }), 'loginId'],
    ['VerifySecondFactor code', client.auth.VerifySecondFactor({ challengeToken: 'x', code: nul }), 'code'],
    ['SignInAsGuest displayName', client.auth.SignInAsGuest({ displayName: nul }), 'displayName'],
    ['RefreshSession refreshToken', client.auth.RefreshSession({ refreshToken: nul }), 'refreshToken'],
  ];
  for (const [name, call, key] of cases) {
    const err = await refused(t, call, 'invalid_argument', grpc.status.INVALID_ARGUMENT);
    t.true(
      err.issues.some((issue) => issue.key === key),
      `${name}: ${JSON.stringify(err.issues)}`,
    );
  }
});
