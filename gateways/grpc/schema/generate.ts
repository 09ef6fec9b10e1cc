/**
 * The generated `.proto` files and the field lock as they must be, from the contracts and the
 * checked-in lock: what `npm run build:proto` writes (main.ts) and what
 * test/contracts/proto-files.test.ts holds the checked-in copies to.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_PROTOS } from './bindings.js';
import { protoFromContracts } from './from-contracts.js';
import { lockText, parseLock } from './lock.js';
import { renderProto } from './render.js';

/** Relative to the repository root. */
export const PROTO_ROOT = 'proto';
export const LOCK_FILE = 'proto/svc/v1/fields.lock.json';
export const PROTO_BUILD_COMMAND = 'npm run build:proto';

export interface GeneratedFiles {
  /** Repository-relative path -> text. */
  files: Map<string, string>;
  /** What the contracts changed in the lock, one line each. */
  changes: string[];
}

export function generateProtoFiles(repoRoot: string): GeneratedFiles {
  const lock = parseLock(readFileSync(join(repoRoot, LOCK_FILE), 'utf8'));
  const generated = protoFromContracts(GENERATED_PROTOS, lock);
  const files = new Map<string, string>();
  for (const file of generated.files) files.set(`${PROTO_ROOT}/${file.path}`, renderProto(file, LOCK_FILE));
  files.set(LOCK_FILE, lockText(generated.lock));
  return { files, changes: generated.changes };
}
