import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import type { z } from 'zod';
import { isAdmin, type Caller, type UserCaller } from '../../accounts/index.js';
import { AppError, type FieldIssue } from '../../errors/index.js';
import { parseOrInvalid } from '../../errors/index.js';
import type { Endpoint } from '../../contracts/http/endpoint.js';
import { unstorableTextIn } from '../../contracts/text.js';
import { mostSpecificPath } from './path-precedence.js';
import type { HttpContext, HttpState } from './state.js';

/**
 * Mounts declared endpoints (`api/*.ts`) on a router: checks who may call, parses and
 * validates params, query and body with the endpoint's schemas (unknown fields are errors),
 * and hands the handler typed input. Handlers never see unvalidated data.
 */
export const JSON_BODY_LIMIT = '64kb';

type Output<S> = [S] extends [z.ZodType] ? z.output<S> : undefined;

/** Who reaches a handler, by the endpoint's access level: `authorize` has refused everyone else. */
type CallerFor<A> = 'public' extends A ? Caller | undefined : 'user_or_guest' extends A ? Caller : UserCaller;

export type EndpointInput<E extends Endpoint> =
  E extends Endpoint<infer Body, infer Params, infer Query, infer A>
    ? { body: Output<Body>; params: Output<Params>; query: Output<Query>; caller: CallerFor<A> }
    : never;

/** Resolves the caller of a request from its credentials; undefined when there are none or they are invalid. */
export type CallerResolver = (ctx: HttpContext) => Promise<Caller | undefined>;

export class EndpointRouter {
  readonly router = new Router<HttpState>();

  constructor(private readonly resolveCaller: CallerResolver) {}

  mount<E extends Endpoint>(endpoint: E, handler: (ctx: HttpContext, input: EndpointInput<E>) => void | Promise<void>): this {
    const path = endpoint.path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
    const parse = bodyParser({
      enableTypes: ['json'],
      jsonLimit: endpoint.bodyLimit ?? JSON_BODY_LIMIT,
      jsonStrict: true,
      onError: (err) => {
        const status = (err as { status?: number }).status;
        if (status === 413) throw new AppError('payload_too_large', `request body is larger than ${endpoint.bodyLimit ?? JSON_BODY_LIMIT}`);
        throw AppError.invalid([{ key: 'body', message: 'is not valid JSON' }]);
      },
    });
    this.router[endpoint.method](path, async (ctx, next) => {
      // A path an endpoint with a fixed segment there owns is not this one's (read-all is not a notification id).
      if (this.ownerOf(ctx.path) !== path) {
        await next();
        return;
      }
      const caller = await this.authorize(ctx, endpoint);
      const undecodable = undecodableParts(ctx.path, ctx.querystring);
      if (undecodable.length > 0) throw AppError.invalid(undecodable);
      let body: unknown;
      let sentBody: unknown;
      if (endpoint.body) {
        if (ctx.request.length && !ctx.is('application/json')) {
          throw AppError.invalid([{ key: 'body', message: 'must be JSON (Content-Type: application/json)' }]);
        }
        await parse(ctx, () => Promise.resolve());
        // The body parser makes an absent body `{}`; the document says which bodies may be left
        // out (requestBody.required), so an absent one is judged as absent.
        const sent = (ctx.request.length ?? 0) > 0 || ctx.get('transfer-encoding') !== '';
        if (!sent && !endpoint.body.safeParse(undefined).success) throw AppError.invalid([{ key: 'body', message: 'is required (a JSON object)' }]);
        sentBody = sent ? (ctx.request as { body?: unknown }).body : undefined;
        body = parseOrInvalid(endpoint.body, sentBody, endpoint.bodyIssuePrefix ?? '', 'body');
      }
      const params = endpoint.params ? parseOrInvalid(endpoint.params, ctx.params) : undefined;
      const query = endpoint.query ? parseOrInvalid(endpoint.query, ctx.query) : undefined;
      if (endpoint.headers) {
        const declared = Object.keys(endpoint.headers.shape);
        // A header sent empty is a value the schema judges (an empty Idempotency-Key is refused), not an absent one.
        parseOrInvalid(endpoint.headers, Object.fromEntries(declared.flatMap((name) => (ctx.headers[name] === undefined ? [] : [[name, ctx.get(name)]]))), 'headers');
      }
      // After the schemas (whose messages are the more precise), over everything as sent.
      const unstorable = [...unstorableTextIn(sentBody), ...unstorableTextIn(ctx.params), ...unstorableTextIn(ctx.query)];
      if (unstorable.length > 0) throw AppError.invalid(unstorable);
      await handler(ctx, { body, params, query, caller } as EndpointInput<E>);
    });
    return this;
  }

  /**
   * In place of the router's own `allowedMethods()`: answers OPTIONS and a method no endpoint
   * serves with the methods of the one path the request belongs to (see path-precedence.ts),
   * not the union over every template that matches it, so `Allow` lists documented methods only.
   */
  allowedMethods(): Middleware<HttpState> {
    return async (ctx, next) => {
      await next();
      if (ctx.status !== 404 || ctx.body != null) return;
      const owner = this.ownerOf(ctx.path);
      if (owner === undefined) return;
      const methods = new Set(this.router.match(ctx.path, ctx.method).path.flatMap((layer) => (layer.path === owner ? layer.methods : [])));
      ctx.set('Allow', [...methods].join(', '));
      if (ctx.method === 'OPTIONS') {
        ctx.status = 200;
        ctx.body = '';
      } else {
        ctx.status = 405;
      }
    };
  }

  /** The route path (`:name` form) a request path belongs to, if any endpoint's matches it. */
  private ownerOf(requestPath: string): string | undefined {
    const paths = this.router.match(requestPath, 'GET').path.flatMap((layer) => (typeof layer.path === 'string' ? [layer.path] : []));
    return mostSpecificPath(paths);
  }

  private async authorize(ctx: HttpContext, endpoint: Endpoint): Promise<Caller | undefined> {
    const caller = await this.resolveCaller(ctx);
    if (endpoint.access === 'public') return caller;
    if (!caller) throw new AppError('unauthenticated', 'sign in first: send a valid access token as "Authorization: Bearer <token>"');
    if (endpoint.access === 'user_or_guest') return caller;
    if (caller.kind !== 'user') throw new AppError('forbidden', 'guests cannot do this; sign in with an account');
    if (endpoint.access === 'admin' && !isAdmin(caller)) throw new AppError('forbidden', 'this needs a service administrator');
    return caller;
  }
}

/**
 * Percent-encoded bytes that are not UTF-8 (a lone surrogate's, for one): the router would pass
 * the segment on still encoded and the query parser would put U+FFFD in its place, either way
 * another string than the one sent; refused instead, naming the part.
 */
function undecodableParts(path: string, querystring: string): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const message = 'is not valid percent-encoded UTF-8';
  if (!decodes(path)) issues.push({ key: 'path', message });
  for (const pair of querystring ? querystring.split('&') : []) {
    const [name = '', value = ''] = pair.split('=', 2).map((part) => part.replace(/\+/g, ' '));
    if (!decodes(name)) issues.push({ key: 'query', message });
    else if (!decodes(value)) issues.push({ key: decodeURIComponent(name), message });
  }
  return issues;
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
