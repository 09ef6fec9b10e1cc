import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { z } from 'zod';
import { isAdmin, type Caller, type UserCaller } from '../../accounts/model.js';
import { AppError } from '../../errors/app-error.js';
import { parseOrInvalid } from '../../errors/field-issues.js';
import type { Endpoint } from '../../contracts/http/endpoint.js';
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
      jsonLimit: JSON_BODY_LIMIT,
      jsonStrict: true,
      onError: (err) => {
        const status = (err as { status?: number }).status;
        if (status === 413) throw new AppError('payload_too_large', `request body is larger than ${JSON_BODY_LIMIT}`);
        throw AppError.invalid([{ key: 'body', message: 'is not valid JSON' }]);
      },
    });
    this.router[endpoint.method](path, async (ctx) => {
      const caller = await this.authorize(ctx, endpoint);
      let body: unknown;
      if (endpoint.body) {
        if (ctx.request.length && !ctx.is('application/json')) {
          throw AppError.invalid([{ key: 'body', message: 'must be JSON (Content-Type: application/json)' }]);
        }
        await parse(ctx, () => Promise.resolve());
        body = parseOrInvalid(endpoint.body, (ctx.request as { body?: unknown }).body);
      }
      const params = endpoint.params ? parseOrInvalid(endpoint.params, ctx.params) : undefined;
      const query = endpoint.query ? parseOrInvalid(endpoint.query, ctx.query) : undefined;
      if (endpoint.headers) {
        const declared = Object.keys(endpoint.headers.shape);
        parseOrInvalid(endpoint.headers, Object.fromEntries(declared.flatMap((name) => (ctx.get(name) === '' ? [] : [[name, ctx.get(name)]]))), 'headers');
      }
      await handler(ctx, { body, params, query, caller } as EndpointInput<E>);
    });
    return this;
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
