import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describeFsError } from './fs-error.js';

export type SecretFileRead = { ok: true; value: string } | { ok: false; message: string };

/**
 * Reads a mounted secret (Docker/Kubernetes secrets, systemd credentials). Editors and
 * `echo` add a final newline that is not part of the secret, so trailing line breaks go.
 */
export async function readSecretFile(path: unknown, cwd: string): Promise<SecretFileRead> {
  if (typeof path !== 'string' || path.trim() === '') {
    return { ok: false, message: 'must be the path of a file holding the value' };
  }
  const absolute = resolve(cwd, path);
  try {
    const text = await readFile(absolute, 'utf8');
    return { ok: true, value: text.replace(/(?<![\r\n])[\r\n]+$/, '') };
  } catch (err) {
    return { ok: false, message: `cannot read the secret file ${absolute}: ${describeFsError(err)}` };
  }
}
