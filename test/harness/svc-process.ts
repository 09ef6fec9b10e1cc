import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ChildProgram } from './child-program.js';

/** Absolute path of the compiled CLI, the same program users run. */
export const svcMain = fileURLToPath(new URL('../../cli/main.js', import.meta.url));

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Environment for a child `svc`: only what the test passes plus PATH/HOME, so a developer's
 * own SVC_* variables can never change a test's outcome.
 */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
}

/** Runs one CLI command to completion (bounded by a deadline). */
export function runSvc(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [svcMain, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A long-running `svc` (for example `serve` or `settings watch`) whose output a test waits on. */
export class SvcProcess extends ChildProgram {
  constructor(args: string[], env: Record<string, string>) {
    super(svcMain, args, childEnv(env));
  }

  /** Resolves with the first stdout line (already seen or still to come) that matches. */
  override waitForLine(match: RegExp | ((line: string) => boolean), timeoutMs = 20_000): Promise<string> {
    const test = typeof match === 'function' ? match : (line: string) => match.test(line);
    return super.waitForLine(test, timeoutMs, `line matching ${String(match)}`);
  }

  /** Sends a signal and waits for exit (SIGKILL after the deadline); resolves with the exit code. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<number | null> {
    return (await this.terminate(signal, timeoutMs)).code;
  }
}
