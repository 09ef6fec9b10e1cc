/**
 * The account part of the management API, behind `svc user`: list, show, ban, unban,
 * set-role, reset-password and create-root. The management endpoint itself is the
 * authorisation (a 0600 socket or a token), as for settings and reviews.
 */
import type Router from '@koa/router';
import { SERVICE_ROLES, USER_STATES, type ServiceRole, type UserState } from '../../accounts/model.js';
import { MAX_USER_PAGE, type UserAdmin, type UserFilter } from '../../accounts/user-admin.js';
import { AppError, type FieldIssue } from '../../errors/app-error.js';
import { routes } from './protocol.js';

const DEFAULT_LIMIT = 100;

export function mountUserRoutes(router: Router, users: UserAdmin | undefined): void {
  const admin = (): UserAdmin => {
    if (users) return users;
    throw new AppError('unavailable', 'this management endpoint was started without the accounts module');
  };

  router.get(routes.users, async (ctx) => {
    ctx.body = await admin().list(parseFilter(ctx.query));
  });
  router.post(routes.users, async (ctx) => {
    const body = objectBody(ctx.request.body, ['username', 'password', 'allowAdditional']);
    ctx.status = 201;
    ctx.body = await admin().createRoot({
      username: stringField(body, 'username'),
      password: stringField(body, 'password'),
      additional: body.allowAdditional === true,
    });
  });
  router.get('/v1/users/:ref', async (ctx) => {
    ctx.body = await admin().show(ctx.params.ref ?? '');
  });
  router.post('/v1/users/:ref/ban', async (ctx) => {
    ctx.body = await admin().ban(ctx.params.ref ?? '');
  });
  router.post('/v1/users/:ref/unban', async (ctx) => {
    ctx.body = await admin().unban(ctx.params.ref ?? '');
  });
  router.put('/v1/users/:ref/role', async (ctx) => {
    const role = stringField(objectBody(ctx.request.body, ['role']), 'role');
    if (!(SERVICE_ROLES as readonly string[]).includes(role)) throw AppError.invalid([{ key: 'role', message: `must be one of ${SERVICE_ROLES.join(', ')}` }]);
    ctx.body = await admin().setRole(ctx.params.ref ?? '', role as ServiceRole);
  });
  router.post('/v1/users/:ref/password', async (ctx) => {
    ctx.body = await admin().resetPassword(ctx.params.ref ?? '', stringField(objectBody(ctx.request.body, ['password']), 'password'));
  });
}

function parseFilter(query: Record<string, string | string[] | undefined>): UserFilter {
  const issues: FieldIssue[] = [];
  const single = (key: string): string | undefined => {
    const value = query[key];
    if (Array.isArray(value)) {
      issues.push({ key, message: 'may be given once' });
      return undefined;
    }
    return value === undefined || value === '' ? undefined : value;
  };
  const role = single('role');
  const state = single('state');
  const limitText = single('limit');
  if (role !== undefined && !(SERVICE_ROLES as readonly string[]).includes(role)) issues.push({ key: 'role', message: `must be one of ${SERVICE_ROLES.join(', ')}` });
  if (state !== undefined && !(USER_STATES as readonly string[]).includes(state)) issues.push({ key: 'state', message: `must be one of ${USER_STATES.join(', ')}` });
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_USER_PAGE)) issues.push({ key: 'limit', message: `must be an integer in 1..=${MAX_USER_PAGE}` });
  if (issues.length > 0) throw AppError.invalid(issues);
  const prefix = single('prefix');
  const after = single('after');
  return {
    ...(role ? { role: role as ServiceRole } : {}),
    ...(state ? { state: state as UserState } : {}),
    ...(prefix ? { prefix } : {}),
    ...(after ? { after } : {}),
    limit,
  };
}

function objectBody(body: unknown, fields: string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw AppError.invalid([{ key: 'body', message: 'must be a JSON object' }]);
  const unknown = Object.keys(body).filter((key) => !fields.includes(key));
  if (unknown.length > 0) throw AppError.invalid(unknown.map((key) => ({ key, message: 'is not a known field' })));
  return body as Record<string, unknown>;
}

function stringField(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (typeof value !== 'string' || value.length === 0) throw AppError.invalid([{ key, message: 'is required (a string)' }]);
  return value;
}
