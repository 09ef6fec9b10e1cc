import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { OPENAPI_BUILD_COMMAND, OPENAPI_FILE, openApiFileText } from '../../../gateways/http/openapi-file.js';
import { repoRoot } from '../../harness/stack.js';

// CI runs this with the rest of `npm test`: a change to an endpoint's schemas that was not
// written to the reviewed file fails here, with the command that brings the file up to date.
test('the checked-in OpenAPI document is the one the server builds', (t) => {
  let checkedIn: string;
  try {
    checkedIn = readFileSync(join(repoRoot(), OPENAPI_FILE), 'utf8');
  } catch {
    t.fail(`${OPENAPI_FILE} is missing: run \`${OPENAPI_BUILD_COMMAND}\` and commit it`);
    return;
  }
  const built = openApiFileText();
  if (checkedIn === built) {
    t.pass();
    return;
  }
  const a = checkedIn.split('\n');
  const b = built.split('\n');
  let line = 0;
  while (line < Math.max(a.length, b.length) && a[line] === b[line]) line += 1;
  t.fail(
    `${OPENAPI_FILE} is stale: run \`${OPENAPI_BUILD_COMMAND}\` and commit the result. ` +
      `First difference at line ${line + 1}: checked in ${JSON.stringify(a[line])}, built ${JSON.stringify(b[line])}`,
  );
});
