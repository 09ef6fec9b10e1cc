import { AppError } from '../errors/index.js';
import type { ServiceRole, User, UserState } from './model.js';
import type { Queryable } from './users.js';

/**
 * Who may administer whom, and the one invariant every change keeps: once a root exists, an
 * active root remains (nobody can ban or demote the last one).
 *
 * The operator (`svc user ...` through the management endpoint, whose 0600 socket or token is
 * the authority) may do anything that invariant allows. An administrator over HTTP acts within
 * their service role, read again inside the transaction of the change, so an administrator
 * demoted or banned a moment ago cannot act:
 * - `admin` and `root` may ban and unban accounts of role `user`;
 * - only `root` may ban or unban an administrator or a root, and only `root` may change a
 *   service role (granting or removing `admin` or `root` is the whole of role management);
 * - nobody acts on their own account over HTTP (no self-ban, no self-demotion): that is how
 *   an administrator locks themselves out; another administrator or the operator can.
 */
export type AdminActor =
  | { kind: 'operator'; /** `cli:<user>@<host>`, for the log. */ name: string }
  | { kind: 'user'; userId: string; /** `user:<username>`, for the log and review decisions. */ name: string };

type ActingRole = 'operator' | 'admin' | 'root';

/** The actor's authority now; an HTTP administrator who is no longer one is `forbidden`. */
export async function actingRole(db: Queryable, actor: AdminActor): Promise<ActingRole> {
  if (actor.kind === 'operator') return 'operator';
  const { rows } = await db.query<{ role: ServiceRole; state: UserState }>('SELECT role, state FROM users WHERE id = $1', [actor.userId]);
  const row = rows[0];
  if (!row || row.state !== 'active' || row.role === 'user') throw new AppError('forbidden', 'this needs a service administrator');
  return row.role;
}

/** Ban and unban. */
export function checkStateChange(role: ActingRole, actor: AdminActor, target: User): void {
  notSelf(actor, target, 'ban or unban');
  if (role === 'admin' && target.role !== 'user') {
    throw new AppError('forbidden', `${target.username} is ${article(target.role)} ${target.role}; only a root may ban or unban administrators`);
  }
}

export function checkRoleChange(role: ActingRole, actor: AdminActor, target: User): void {
  notSelf(actor, target, 'change the role of');
  if (role === 'admin') throw new AppError('forbidden', 'only a root may change service roles');
}

/**
 * Refuses a change that would take the last active root away. Callers hold the
 * `serviceRoles` advisory lock, so two changes cannot each see the other root still there.
 */
export async function keepAnActiveRoot(db: Queryable, target: User, after: { role: ServiceRole; state: UserState }): Promise<void> {
  const wasActiveRoot = target.role === 'root' && target.state === 'active';
  const staysActiveRoot = after.role === 'root' && after.state === 'active';
  if (!wasActiveRoot || staysActiveRoot) return;
  const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM users WHERE role = 'root' AND state = 'active' AND id <> $1", [target.id]);
  if (Number(rows[0]?.n ?? 0) === 0) {
    throw new AppError(
      'conflict',
      `${target.username} is the last active root; make another user root first ("svc user set-role <user> root")`,
      [{ key: after.role !== 'root' ? 'role' : 'state', message: 'would leave no active root' }],
    );
  }
}

function notSelf(actor: AdminActor, target: User, what: string): void {
  if (actor.kind === 'user' && actor.userId === target.id) {
    throw new AppError('forbidden', `you cannot ${what} your own account; another administrator or the operator ("svc user") can`);
  }
}

function article(role: ServiceRole): string {
  return role === 'admin' ? 'an' : 'a';
}
