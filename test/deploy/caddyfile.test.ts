/**
 * deploy/caddy/Caddyfile is what `caddy validate` accepts (adapted, every module provisioned)
 * and is formatted as `caddy fmt` writes it. Debian has no caddy package: the test runs when
 * a caddy binary is on PATH or named by SVCTEST_CADDY (e.g. built with
 * `go install github.com/caddyserver/caddy/v2/cmd/caddy@v2.8.4`), and is skipped otherwise.
 */
import { execFile, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { repoRoot } from '../harness/stack.js';

const execFileAsync = promisify(execFile);
const caddy = process.env.SVCTEST_CADDY ?? 'caddy';
const present = spawnSync(caddy, ['version'], { stdio: 'ignore' }).status === 0;
const caddyfile = join(repoRoot(), 'deploy', 'caddy', 'Caddyfile');

(present ? test : test.skip)('the documented Caddyfile validates and is caddy-fmt formatted', async (t) => {
  const validated = await execFileAsync(caddy, ['validate', '--config', caddyfile, '--adapter', 'caddyfile'], { timeout: 30_000 });
  t.regex(validated.stdout + validated.stderr, /Valid configuration/);
  const formatted = await execFileAsync(caddy, ['fmt', caddyfile], { timeout: 30_000 });
  t.is(formatted.stdout.trimEnd(), (await readFile(caddyfile, 'utf8')).trimEnd());
});
