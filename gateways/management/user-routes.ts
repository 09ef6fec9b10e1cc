/**
 * The user part of the management API, behind `svc user`: list, show, ban, unban, set-role,
 * reset-password and create-root. The management endpoint itself is the authority (a 0600
 * socket or a token), so the operator may do anything the last-root rule allows; who did it
 * is the caller the CLI names in the actor header, written to the log with every change.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { logAdminAction } from '../../accounts/index.js';
import type { AdminActor } from '../../accounts/index.js';
import type { User } from '../../accounts/index.js';
import type { UserAdmin, UserChange } from '../../accounts/index.js';
import type { UserDetails } from '../../accounts/index.js';
import { DEFAULT_PAGE, MAX_PAGE } from '../../accounts/index.js';
import { AppError, type FieldIssue } from '../../errors/index.js';
import { userView } from '../http/views.js';
import { REASON_MAX_CHARS } from '../../contracts/review.js';
import type { Logger } from '../../observability/index.js';
import { ACTOR_HEADER, routes, type UserChangeView, type UserDetailView, type UserRole, type UserState } from '../../contracts/management.js';
import { singleParams } from './query.js';

const MAX_PASSWORD_CHARS = 1024;
/** OPAQUE messages are base64url of at most a few hundred bytes. */
const MAX_OPAQUE_CHARS = 1024;

export function mountUserRoutes(router: Router, users: UserAdmin | undefined, actorOf: (header: string) => string): void {
  const admin = (): UserAdmin => {
    if (users) return users;
    throw new AppError('unavailable', 'user administration needs the accounts module; this management endpoint was started without it');
  };
  const operator = (ctx: Context): AdminActor => ({ kind: 'operator', name: actorOf(ctx.get(ACTOR_HEADER)) });
  const audit = (ctx: Context, action: string, change: { user: User }, details: Record<string, unknown> = {}): void =>
    logAdminAction((ctx.state as { log: Logger }).log, action, operator(ctx), change.user, details);

  router.get(routes.users, async (ctx) => {
    const page = await admin().list(parseFilter(ctx.query));
    ctx.body = { users: page.users.map(userView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  });

  router.post(routes.userCreateRootOpaque, async (ctx) => {
    const body = fields(ctx.request.body, ['username', 'registrationRequest']);
    ctx.body = await admin().rootRegistrationResponse(text(body, 'username', 128), text(body, 'registrationRequest', MAX_OPAQUE_CHARS));
  });

  router.post(routes.userCreateRoot, async (ctx) => {
    const body = fields(ctx.request.body, ['username', 'password', 'registrationRecord', 'allowAdditional']);
    const allowAdditional = body.allowAdditional ?? false;
    if (typeof allowAdditional !== 'boolean') throw AppError.invalid([{ key: 'allowAdditional', message: 'must be true or false' }]);
    const user = await admin().createRoot({ username: text(body, 'username', 128), ...newPassword(body) }, { allowAdditional });
    audit(ctx, 'user.create-root', { user }, { allowAdditional });
    ctx.status = 201;
    ctx.body = userView(user);
  });

  router.get('/v1/users/:user', async (ctx) => {
    ctx.body = detailView(await admin().show(ctx.params.user ?? ''));
  });

  router.post('/v1/users/:user/ban', async (ctx) => {
    const body = fields(ctx.request.body, ['reason']);
    const reason = body.reason === undefined ? undefined : text(body, 'reason', REASON_MAX_CHARS);
    const change = await admin().ban(operator(ctx), ctx.params.user ?? '');
    audit(ctx, 'user.ban', change, { reason: reason ?? null, changed: change.changed, revokedSessions: change.revokedSessions });
    ctx.body = changeView(change);
  });

  router.post('/v1/users/:user/unban', async (ctx) => {
    fields(ctx.request.body, []);
    const change = await admin().unban(operator(ctx), ctx.params.user ?? '');
    audit(ctx, 'user.unban', change, { changed: change.changed });
    ctx.body = changeView(change);
  });

  router.post('/v1/users/:user/role', async (ctx) => {
    const body = fields(ctx.request.body, ['role']);
    const change = await admin().setRole(operator(ctx), ctx.params.user ?? '', text(body, 'role', 16));
    audit(ctx, 'user.set-role', change, { role: change.user.role, changed: change.changed });
    ctx.body = changeView(change);
  });

  router.post('/v1/users/:user/reset-password/opaque', async (ctx) => {
    const body = fields(ctx.request.body, ['registrationRequest']);
    ctx.body = await admin().resetRegistrationResponse(ctx.params.user ?? '', text(body, 'registrationRequest', MAX_OPAQUE_CHARS));
  });

  router.post('/v1/users/:user/reset-password', async (ctx) => {
    const body = fields(ctx.request.body, ['password', 'registrationRecord']);
    const change = await admin().resetPassword(ctx.params.user ?? '', newPassword(body));
    audit(ctx, 'user.reset-password', change, { revokedSessions: change.revokedSessions });
    ctx.body = changeView(change);
  });
}

/** A new password as the CLI sends it: an OPAQUE record it made, or (older CLIs) the password. */
function newPassword(body: Record<string, unknown>): { password: string } | { registrationRecord: string } {
  if (body.registrationRecord !== undefined) {
    if (body.password !== undefined) throw AppError.invalid([{ key: 'password', message: 'give password or registrationRecord, not both' }]);
    return { registrationRecord: text(body, 'registrationRecord', MAX_OPAQUE_CHARS) };
  }
  return { password: text(body, 'password', MAX_PASSWORD_CHARS) };
}

function detailView(details: UserDetails): UserDetailView {
  return { ...details, user: userView(details.user) };
}

function changeView(change: UserChange): UserChangeView {
  return { ...change, user: userView(change.user) };
}

function parseFilter(query: Record<string, string | string[] | undefined>): Parameters<UserAdmin['list']>[0] {
  const issues: FieldIssue[] = [];
  const single = singleParams(query, issues);
  const unknown = Object.keys(query).filter((key) => !['role', 'state', 'q', 'limit', 'cursor'].includes(key));
  for (const key of unknown) issues.push({ key, message: 'is not a filter of the user list (role, state, q, limit, cursor)' });
  const role = single('role');
  const state = single('state');
  const prefix = single('q');
  const cursor = single('cursor');
  const limitText = single('limit');
  const limit = limitText === undefined ? DEFAULT_PAGE : Number(limitText);
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_PAGE)) issues.push({ key: 'limit', message: `must be an integer in 1..=${MAX_PAGE}` });
  if (role !== undefined && !['root', 'admin', 'user'].includes(role)) issues.push({ key: 'role', message: 'must be root, admin or user' });
  if (state !== undefined && !['active', 'banned'].includes(state)) issues.push({ key: 'state', message: 'must be active or banned' });
  if (issues.length > 0) throw AppError.invalid(issues);
  return {
    limit,
    ...(role !== undefined ? { role: role as UserRole } : {}),
    ...(state !== undefined ? { state: state as UserState } : {}),
    ...(prefix !== undefined ? { prefix } : {}),
    ...(cursor !== undefined ? { cursor } : {}),
  };
}

/** A JSON object body holding only the named fields. */
function fields(body: unknown, allowed: string[]): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw AppError.invalid([{ key: 'body', message: 'must be a JSON object' }]);
  const record = body as Record<string, unknown>;
  const unknown = Object.keys(record).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) throw AppError.invalid(unknown.map((key) => ({ key, message: 'is not a known field' })));
  return record;
}

function text(body: Record<string, unknown>, key: string, max: number): string {
  const value = body[key];
  if (value === undefined || value === '') throw AppError.invalid([{ key, message: 'is required' }]);
  if (typeof value !== 'string') throw AppError.invalid([{ key, message: 'must be a string' }]);
  if (value.length > max) throw AppError.invalid([{ key, message: `must be at most ${max} characters` }]);
  return value;
}
