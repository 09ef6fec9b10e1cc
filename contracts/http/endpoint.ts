/**
 * How every public HTTP endpoint is declared: one object holding its path, the zod schemas of
 * what it accepts and answers, and the error codes it may return. The router validates with
 * these schemas and `/api/openapi.json` is generated from them, so the two cannot drift.
 * A leaf module: zod and the error-code list only, so clients can import the contracts.
 */
import type { z } from 'zod';
import type { ErrorCode } from '../errors.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Who may call: anyone, a signed-in user, a user or a guest, or a service administrator. */
export type Access = 'public' | 'user' | 'user_or_guest' | 'admin';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Response headers worth documenting (Set-Cookie, Retry-After). */
  headers?: Record<string, { description: string }>;
  /**
   * OpenAPI links: operations a client (and schemathesis' stateful phase) can call next with a
   * value from this answer, e.g. `{ getRoom: { operationId: 'getRoom', parameters: { roomId: '$response.body#/room/id' } } }`.
   */
  links?: Record<string, ResponseLink>;
}

export interface ResponseLink {
  operationId: string;
  /** Parameter name to a runtime expression (`$response.body#/room/id`). */
  parameters: Record<string, string>;
  description?: string;
}

export interface Endpoint<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Params extends z.ZodObject | undefined = z.ZodObject | undefined,
  Query extends z.ZodObject | undefined = z.ZodObject | undefined,
  A extends Access = Access,
> {
  method: HttpMethod;
  /** OpenAPI form, `{name}` for parameters. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: A;
  body?: Body;
  /**
   * Example bodies by name: what a client would send (the document's media-type examples, which
   * schema-based tools send first: schemathesis' examples phase). Each must be admitted by `body`.
   */
  bodyExamples?: Record<string, unknown>;
  /** Issues about the body's fields are named under this prefix (a settings group's keys: server.maxRoomsPerUser). */
  bodyIssuePrefix?: string;
  /** The JSON body limit when larger than the router's default (an upload carried in base64). */
  bodyLimit?: string;
  params?: Params;
  query?: Query;
  /** Request headers the endpoint reads (lower-case names), documented and validated like the rest. */
  headers?: z.ZodObject;
  responses: Partial<Record<200 | 201 | 202 | 204 | 302, ResponseSpec>>;
  /** Error codes beyond those every endpoint may answer (invalid_argument, internal, ...). */
  errors: ErrorCode[];
}

export function defineEndpoint<
  Body extends z.ZodType | undefined = undefined,
  Params extends z.ZodObject | undefined = undefined,
  Query extends z.ZodObject | undefined = undefined,
  const A extends Access = Access,
>(endpoint: Endpoint<Body, Params, Query, A>): Endpoint<Body, Params, Query, A> {
  return endpoint;
}
