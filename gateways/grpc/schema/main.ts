/**
 * `node main.js [--check] <repository root>`, run by infra/build-proto.sh: writes the `.proto`
 * files generated from the contracts and the field lock, logging what changed; with --check (CI)
 * writes nothing and fails when a checked-in copy differs, naming the command that updates it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContractProtoError } from './from-contracts.js';
import { generateProtoFiles, PROTO_BUILD_COMMAND } from './generate.js';

const args = process.argv.slice(2);
const check = args.includes('--check');
const root = args.find((arg) => !arg.startsWith('--')) ?? process.cwd();

try {
  const { files, changes } = generateProtoFiles(root);
  const stale = [...files].filter(([path, text]) => {
    try {
      return readFileSync(join(root, path), 'utf8') !== text;
    } catch {
      return true;
    }
  });
  if (check && stale.length > 0) {
    console.error(`stale: ${stale.map(([path]) => path).join(', ')} differ from what the contracts generate; run \`${PROTO_BUILD_COMMAND}\` and commit the result`);
    for (const change of changes) console.error(`  ${change}`);
    process.exit(1);
  }
  for (const [path, text] of stale) {
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
  for (const change of changes) console.log(`  ${change}`);
} catch (err) {
  if (!(err instanceof ContractProtoError)) throw err;
  console.error(err.message);
  process.exit(1);
}
