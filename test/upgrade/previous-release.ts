/**
 * The previous release of svc, built from git into a cache folder the rolling-upgrade test
 * runs it from: `~/.cache/svc/releases/<sha>/` (or `$XDG_CACHE_HOME/svc/releases/<sha>/`),
 * built once and reused. The commit is pinned in `test/upgrade/previous-release`.
 *
 * Building: `git archive` of the commit (no worktree to clean up, nothing shared with the
 * checkout), node_modules hard-linked from this checkout when the commit's package-lock.json is
 * the same as ours (a copy of nothing: seconds), else `npm ci --prefer-offline` there, then the
 * release's own `infra/build.sh --no-web`. A half-built folder is never used: the build happens
 * in a temporary folder renamed into place at the end.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../harness/stack.js';

const run = promisify(execFile);
const BUILT_MARKER = '.svc-release-built';

export interface PreviousRelease {
  sha: string;
  /** The release's root folder (its package.json, dist/, node_modules). */
  root: string;
  /** Its compiled CLI, run as `node <main> serve ...`. */
  main: string;
  /** Milliseconds this call spent building (0 when the cache had it). */
  buildMs: number;
}

/** The pinned commit: the first line of test/upgrade/previous-release that is not a comment. */
export async function pinnedCommit(): Promise<string> {
  const text = await readFile(join(repoRoot(), 'test', 'upgrade', 'previous-release'), 'utf8');
  const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '' && !l.startsWith('#'));
  if (!line) throw new Error('test/upgrade/previous-release names no commit');
  return line;
}

/** The previous release, built into the cache if it is not there yet. */
export async function previousRelease(commit: string, log: (line: string) => void = () => undefined): Promise<PreviousRelease> {
  const root = repoRoot();
  let sha: string;
  try {
    sha = (await run('git', ['-C', root, 'rev-parse', '--verify', `${commit}^{commit}`])).stdout.trim();
  } catch {
    throw new Error(
      `the previous release ${commit} (test/upgrade/previous-release) is not in this git checkout: ` +
        'the rolling-upgrade test needs the full history (a clone without --depth, or "git fetch --unshallow")',
    );
  }
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'svc', 'releases');
  const target = join(cache, sha);
  const main = join(target, 'dist', 'cli', 'main.js');
  if (existsSync(join(target, BUILT_MARKER)) && existsSync(main)) return { sha, root: target, main, buildMs: 0 };

  const started = performance.now();
  const building = join(cache, `${sha}.building-${process.pid}`);
  await rm(building, { recursive: true, force: true });
  await mkdir(building, { recursive: true });
  try {
    log(`extracting ${sha.slice(0, 12)} into ${building}`);
    await sh(`git -C "${root}" archive "${sha}" | tar -x -C "${building}"`, root);
    const sameLock = (await readFile(join(root, 'package-lock.json'), 'utf8')) === (await readFile(join(building, 'package-lock.json'), 'utf8'));
    if (sameLock && existsSync(join(root, 'node_modules'))) {
      log('package-lock.json unchanged: hard-linking node_modules');
      // Hard links across file systems fail; a plain copy is slower but works everywhere.
      await sh(`cp -al "${join(root, 'node_modules')}" "${building}/" 2>/dev/null || cp -a "${join(root, 'node_modules')}" "${building}/"`, root);
    } else {
      log('package-lock.json differs: npm ci --prefer-offline');
      await sh('npm ci --prefer-offline --no-audit --no-fund', building);
    }
    log('building the release (infra/build.sh --no-web)');
    await sh('bash infra/build.sh --no-web', building);
    await writeFile(join(building, BUILT_MARKER), `${sha}\n`);
    await rm(target, { recursive: true, force: true });
    await rename(building, target);
  } catch (err) {
    await rm(building, { recursive: true, force: true });
    throw err;
  }
  return { sha, root: target, main, buildMs: Math.round(performance.now() - started) };
}

/** Runs a shell command, failing with its output. */
function sh(command: string, cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -o pipefail; ${command}`], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} (in ${cwd}) exited with ${code}:\n${output}`))));
  });
}
