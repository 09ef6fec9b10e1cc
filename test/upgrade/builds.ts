/**
 * `svc serve` of either build on one stack: the current one (this checkout's dist/) or the
 * previous release (previous-release.ts), started the way startReplica starts the current one.
 */
import { execFile } from 'node:child_process';
import { ChildProgram } from '../harness/child-program.js';
import { childEnv, svcMain } from '../harness/svc-process.js';

export interface Build {
  name: 'previous' | 'current';
  /** The compiled CLI of the build. */
  main: string;
}

export const currentBuild: Build = { name: 'current', main: svcMain };

export interface RunningBuild {
  build: Build;
  label: string;
  process: ChildProgram;
  /** Empty without the gateway role. */
  httpUrl: string;
  env: Record<string, string>;
}

/** Starts `svc serve <args>` of `build` and waits until it serves (its management line comes last). */
export async function startBuild(build: Build, label: string, args: string[], env: Record<string, string>): Promise<RunningBuild> {
  const process = new ChildProgram(build.main, ['serve', ...args], childEnv(env));
  try {
    await process.waitForLine((line) => line.startsWith('management: '), 60_000, `${label} (${build.name} build) serving`);
  } catch (err) {
    await process.terminate('SIGKILL');
    throw err;
  }
  const httpLine = process.lines.find((line) => line.startsWith('svc HTTP API: '));
  return { build, label, process, env, httpUrl: httpLine ? httpLine.replace(/^svc HTTP API: /, '').trim() : '' };
}

/** SIGTERM (drain), and the exit code; a process still there after the deadline is killed and reported. */
export async function drain(running: RunningBuild, timeoutMs = 30_000): Promise<number | null> {
  return (await running.process.terminate('SIGTERM', timeoutMs)).code;
}

/** Runs one CLI command of `build` to completion (bounded by a deadline). */
export function runBuild(build: Build, args: string[], env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [build.main, ...args], { env: childEnv(env), timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') reject(new Error(`${build.name} svc ${args.join(' ')}: ${err.message}\n${stderr}`));
      else resolve({ code: err ? (err.code as number) : 0, stdout, stderr });
    });
  });
}
