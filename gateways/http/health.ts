import Router from '@koa/router';
import type { DependencyState, ReadinessProbe } from '../../observability/index.js';
import type { ErrorBody } from './errors.js';
import type { HttpState } from './state.js';

/**
 * The diagnostic body of `/health/ready` on the metrics listener (`metrics.listen`);
 * deliberately not the error shape. The public port never shows it: dependency errors name
 * hosts, users and versions.
 */
export type ReadinessBody = (
  | { status: 'ready'; dependencies: DependencyState[] }
  | { status: 'not_ready'; firstError: string; dependencies: DependencyState[] }
) & { details?: Record<string, unknown> };

export function readinessBody(dependencies: DependencyState[], details?: Record<string, unknown>): ReadinessBody {
  const extra = details && Object.keys(details).length > 0 ? { details } : {};
  // The probe lists dependencies in start-up order, so the first failure is usually the
  // cause of the later ones (migrations are unknown while PostgreSQL is down).
  const failed = dependencies.find((dependency) => !dependency.ok);
  if (!failed) return { status: 'ready', dependencies, ...extra };
  return { status: 'not_ready', firstError: `${failed.name}: ${failed.error ?? 'not ready'}`, dependencies, ...extra };
}

/**
 * The public port's health. Liveness says only that the process answers HTTP, so an
 * orchestrator restarts it when it does not; readiness checks every dependency on each call
 * (nothing cached, so a recovered dependency shows at once) and decides whether the replica
 * gets traffic. Both say no more than that: which dependency failed, and how, is on the
 * metrics listener (`detailedReadinessRoutes`) and in `svc system stats`.
 */
export function healthRoutes(readiness: ReadinessProbe): Router<HttpState> {
  const router = new Router<HttpState>();

  router.get('/health/live', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'live' };
  });

  router.get('/health/ready', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const dependencies = await readiness.check();
    if (dependencies.every((dependency) => dependency.ok)) {
      ctx.body = { status: 'ready' };
      return;
    }
    // Written, not thrown: a load balancer polling a replica that is down is no server error to log.
    ctx.status = 503;
    ctx.body = { requestId: ctx.state.requestId, status: 503, code: 'unavailable', message: 'not ready' } satisfies ErrorBody;
  });

  return router;
}

/** `/health/ready` with every dependency's state and the first error (200 or 503), for operators. */
export function detailedReadinessRoutes(readiness: ReadinessProbe): Router<HttpState> {
  const router = new Router<HttpState>();
  router.get('/health/ready', async (ctx) => {
    const body = readinessBody(await readiness.check(), readiness.details?.());
    ctx.set('Cache-Control', 'no-store');
    ctx.status = body.status === 'ready' ? 200 : 503;
    ctx.body = body;
  });
  return router;
}
