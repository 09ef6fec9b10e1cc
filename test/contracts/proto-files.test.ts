/**
 * The generated .proto files (and their field lock) are checked in for reviewers and stock gRPC
 * clients; CI fails here while a checked-in copy differs from what the contracts generate, with
 * the command that brings it up to date (like openapi-file.test.ts for the OpenAPI document).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { generateProtoFiles, PROTO_BUILD_COMMAND } from '../../gateways/grpc/schema/generate.js';
import { repoRoot } from '../harness/stack.js';

test('the checked-in generated .proto files and field lock are what the contracts generate', (t) => {
  const { files, changes } = generateProtoFiles(repoRoot());
  t.true(files.size >= 2);
  for (const [path, built] of files) {
    let checkedIn: string;
    try {
      checkedIn = readFileSync(join(repoRoot(), path), 'utf8');
    } catch {
      t.fail(`${path} is missing: run \`${PROTO_BUILD_COMMAND}\` and commit it`);
      continue;
    }
    if (checkedIn === built) continue;
    const a = checkedIn.split('\n');
    const b = built.split('\n');
    let line = 0;
    while (line < Math.max(a.length, b.length) && a[line] === b[line]) line += 1;
    t.fail(
      `${path} is stale: run \`${PROTO_BUILD_COMMAND}\` and commit the result (${changes.join('; ') || 'no lock change'}). ` +
        `First difference at line ${line + 1}: checked in ${JSON.stringify(a[line])}, built ${JSON.stringify(b[line])}`,
    );
  }
  t.deepEqual(changes, [], 'the checked-in lock already holds every field');
});
