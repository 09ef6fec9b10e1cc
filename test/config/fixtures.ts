import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { loadConfig, type LoadOptions, type LoadResult } from '../../config/load.js';
import { generateSecrets } from '../../config/secrets.js';

/** A temp directory removed when the test ends, pass or fail. */
export async function tempDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-config-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

export async function writeText(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  return path;
}

/** Environment with fresh, valid values for the three server secrets (no management token). */
export interface SecretsEnv extends Record<string, string> {
  SVC_JWT_SECRET: string;
  SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: string;
  SVC_CREDENTIAL_ENCRYPTION_KEY: string;
}

export async function secretsEnv(): Promise<SecretsEnv> {
  const secrets = await generateSecrets();
  return {
    SVC_JWT_SECRET: secrets['jwt.secret'],
    SVC_SECURITY_OPAQUE_SERVER_SETUP_SECRET: secrets['security.opaque_server_setup_secret'],
    SVC_CREDENTIAL_ENCRYPTION_KEY: secrets.credential_encryption_key,
  };
}

/** Loads with a valid baseline environment (secrets, data_dir) plus `env`, from `cwd`. */
export async function loadWith(
  cwd: string,
  env: Record<string, string> = {},
  extra: Omit<LoadOptions, 'env' | 'cwd'> = {},
): Promise<LoadResult> {
  return loadConfig({ cwd, env: { ...(await secretsEnv()), ...env }, ...extra });
}

export function keysOf(result: Pick<LoadResult, 'issues'>): string[] {
  return result.issues.map((issue) => issue.key);
}

export function messageFor(result: Pick<LoadResult, 'issues'>, key: string): string {
  const found = result.issues.find((issue) => issue.key === key);
  if (!found) throw new Error(`no issue for ${key}; issues: ${JSON.stringify(result.issues)}`);
  return found.message;
}
