import Router from '@koa/router';
import type { DependencyState, ReadinessProbe } from '../../server/readiness.js';
import type { HttpState } from './state.js';

/** The documented diagnostic body of `/health/ready`; deliberately not the error shape. */
export type ReadinessBody =
  | { status: 'ready'; dependencies: DependencyState[] }
  | { status: 'not_ready'; firstError: string; dependencies: DependencyState[] };

export function readinessBody(dependencies: DependencyState[]): ReadinessBody {
  // The probe lists dependencies in start-up order, so the first failure is usually the
  // cause of the later ones (migrations are unknown while PostgreSQL is down).
  const failed = dependencies.find((dependency) => !dependency.ok);
  if (!failed) return { status: 'ready', dependencies };
  return { status: 'not_ready', firstError: `${failed.name}: ${failed.error ?? 'not ready'}`, dependencies };
}

/**
 * Liveness says only that the process answers HTTP, so an orchestrator restarts it when it
 * does not; readiness checks every dependency on each call (nothing cached, so a recovered
 * dependency shows at once) and decides whether the replica gets traffic.
 */
export function healthRoutes(readiness: ReadinessProbe): Router<HttpState> {
  const router = new Router<HttpState>();

  router.get('/health/live', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'live' };
  });

  router.get('/health/ready', async (ctx) => {
    const body = readinessBody(await readiness.check());
    ctx.set('Cache-Control', 'no-store');
    ctx.status = body.status === 'ready' ? 200 : 503;
    ctx.body = body;
  });

  return router;
}
