import { existsSync } from 'node:fs';

/**
 * How this process was deployed, for diagnosis (spec section 9). An operator can state it
 * with SVC_DEPLOYMENT_METHOD; otherwise it is inferred from the environment.
 */
export function deploymentMethod(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SVC_DEPLOYMENT_METHOD) return env.SVC_DEPLOYMENT_METHOD;
  if (env.KUBERNETES_SERVICE_HOST) return 'kubernetes';
  if (env.npm_lifecycle_event === 'dev') return 'npm-dev';
  if (existsSync('/.dockerenv') || existsSync('/run/.containerenv')) return 'container';
  return 'process';
}
