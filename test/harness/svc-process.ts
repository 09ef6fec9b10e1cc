import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
export class SvcProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  stderr = '';
  private waiters: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];
  private exited: Promise<number | null>;

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, [svcMain, ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let partial = '';
    this.child.stdout?.on('data', (chunk: Buffer) => {
      partial += chunk.toString();
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.accept(line);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** Resolves with the first stdout line (already seen or still to come) that matches. */
  waitForLine(match: RegExp | ((line: string) => boolean), timeoutMs = 20_000): Promise<string> {
    const test = typeof match === 'function' ? match : (line: string) => match.test(line);
    const seen = this.lines.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        test,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no line matching ${String(match)} within ${timeoutMs} ms\nstdout:\n${this.lines.join('\n')}\nstderr:\n${this.stderr}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a signal and waits for exit (SIGKILL after the deadline). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<number | null> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.child.exitCode;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const code = await this.exited;
    clearTimeout(timer);
    return code;
  }

  private accept(line: string): void {
    this.lines.push(line);
    for (const waiter of [...this.waiters]) {
      if (waiter.test(line)) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve(line);
      }
    }
  }
}
