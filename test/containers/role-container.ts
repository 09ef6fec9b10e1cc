/**
 * One role of svc in its own container, as an operator runs the image by hand: the host's
 * network (the test stack listens on loopback), the secret files mounted, a loopback port per
 * listener. Shared by the image test and `npm run bench:containers`.
 */
import { randomUUID } from 'node:crypto';
import { freePort, freshDatabase, testStack } from '../harness/stack.js';
import { logsOf, podman, podmanOk, secretFiles, SVC_IMAGE, waitReady } from './podman.js';

export type Role = 'gateway' | 'actors' | 'worker';

export interface RoleDeployment {
  /** Arguments of `podman run` every role shares (network, secrets, dependencies). */
  common: string[];
  tag: string;
}

/** A fresh, migrated database on the test stack and the `podman run` arguments that reach it. */
export async function roleDeployment(label: string): Promise<RoleDeployment> {
  const stack = testStack();
  const databaseUrl = await freshDatabase(label);
  const secretsDir = await secretFiles(databaseUrl);
  const tag = randomUUID().slice(0, 8);
  const common = [
    '--network', 'host',
    '--volume', `${secretsDir}:/run/secrets/svc:ro`,
    '--env', 'SVC_DATABASE_URL_FILE=/run/secrets/svc/database_url',
    '--env', 'SVC_JWT_SECRET_FILE=/run/secrets/svc/jwt_secret',
    '--env', 'SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET_FILE=/run/secrets/svc/opaque_server_setup_secret',
    '--env', 'SVC_CREDENTIAL_ENCRYPTION_KEY_FILE=/run/secrets/svc/credential_encryption_key',
    '--env', `SVC_REDIS_URL=${stack.redisUrl}`,
    '--env', `SVC_NATS_URL=${stack.natsUrl}`,
    '--env', `SVC_NATS_SUBJECT_PREFIX=img${tag}`,
    '--env', `SVC_TEMPORAL_ADDRESS=${stack.temporalAddress}`,
    '--env', `SVC_TEMPORAL_TASK_QUEUE=img-${tag}`,
  ];
  const migrated = await podman(['run', '--rm', ...common, SVC_IMAGE, 'migrate'], { timeoutMs: 120_000 });
  if (migrated.code !== 0) throw new Error(`migrate in the image failed: ${migrated.stderr}`);
  return { common, tag };
}

export interface RunningRole {
  name: string;
  /** The gateway's HTTP base URL (empty for the other roles). */
  url: string;
  /** From `podman run` to the first 200 from /health/ready. */
  readyMs: number;
}

/** Starts `serve --role <role>` in a container and waits for it to be ready. */
export async function startRole(deployment: RoleDeployment, role: Role, name = `svc-${role}-${deployment.tag}`): Promise<RunningRole> {
  const metrics = await freePort();
  const http = await freePort();
  const gateway = [
    '--env', 'SVC_SERVER_HOST=127.0.0.1', '--env', `SVC_SERVER_PORT=${http}`,
    '--env', 'SVC_GRPC_HOST=127.0.0.1', '--env', `SVC_GRPC_PORT=${await freePort()}`,
    '--env', 'SVC_RTMP_ENABLED=false',
    '--env', `SVC_SERVER_PUBLIC_URL=http://127.0.0.1:${http}`,
    '--env', `SVC_WEBAUTHN_RP_ORIGIN=http://127.0.0.1:${http}`, '--env', 'SVC_WEBAUTHN_RP_ID=127.0.0.1',
  ];
  const startedAt = performance.now();
  await podmanOk(['run', '--detach', '--name', name, ...deployment.common, '--env', `SVC_METRICS_LISTEN=127.0.0.1:${metrics}`, ...(role === 'gateway' ? gateway : []), SVC_IMAGE, 'serve', '--role', role]);
  await waitReady(`http://127.0.0.1:${metrics}`, `the ${role} container to be ready`, 120_000, () => logsOf(name));
  return { name, url: role === 'gateway' ? `http://127.0.0.1:${http}` : '', readyMs: performance.now() - startedAt };
}
