/**
 * The table of startup keys in docs/configuration.md (KEY_TABLE_FILE) is the one config/key-table.ts writes from the registry:
 * a key added or changed without `npm run build:config-table` fails here, naming the command.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { KEY_TABLE_BUILD_COMMAND, KEY_TABLE_FILE, keyTableMarkdown, withKeyTable } from '../../config/key-table.js';
import { envName, STARTUP_KEYS } from '../../config/keys.js';
import { repoRoot } from '../harness/stack.js';

test('the configuration doc holds the key table the registry builds', (t) => {
  const readme = readFileSync(join(repoRoot(), KEY_TABLE_FILE), 'utf8');
  const built = withKeyTable(readme);
  if (readme === built) return t.pass();
  const a = readme.split('\n');
  const b = built.split('\n');
  let line = 0;
  while (line < Math.max(a.length, b.length) && a[line] === b[line]) line += 1;
  t.fail(
    `${KEY_TABLE_FILE}'s table of startup keys is stale: run \`${KEY_TABLE_BUILD_COMMAND}\` and commit the result. ` +
      `First difference at line ${line + 1}: checked in ${JSON.stringify(a[line])}, built ${JSON.stringify(b[line])}`,
  );
});

test('the table has a row per key with its environment variable, and code for placeholders', (t) => {
  const table = keyTableMarkdown();
  for (const key of STARTUP_KEYS) t.true(table.includes(`| \`${key.key}\` | \`${envName(key.key)}\``), key.key);
  t.regex(table, /\| `jwt\.secret` \| `SVC_JWT_SECRET`, `SVC_JWT_SECRET_FILE` \| none: required \|/);
  t.regex(table, /\| `server\.port` \| `SVC_SERVER_PORT`, `svc serve --http-port` \| `8080` \| port \|/);
  // A bare <data_dir> would render as an HTML tag: every placeholder is inside a code span.
  t.false(table.replace(/`[^`]*`/g, '').includes('<'));
  t.true(table.includes('`<data_dir>/slice-cache/`'));
});
