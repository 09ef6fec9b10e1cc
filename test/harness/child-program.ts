import { spawn, type ChildProcess } from 'node:child_process';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Programs still running when this process exits, however it exits (a failed assertion, an
 * unhandled rejection in a benchmark): they are killed, so no orphan keeps using the CPU, the
 * ports or the stack of later runs.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** With BENCH_PROF_DIR set (infra/bench.sh), each child writes a V8 CPU profile there as it exits. */
const profileArgs = (): string[] => (process.env.BENCH_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF_DIR}`] : []);

/**
 * A long-running Node program started by a test (the `svc` CLI, an actor host fixture) whose
 * stdout lines the test waits on with deadlines.
 */
export class ChildProgram {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<Exit>;
  private waiters: Array<{ test: (line: string) => boolean; resolve: (line: string) => void }> = [];

  constructor(main: string, args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [...profileArgs(), '--enable-source-maps', main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(this.child);
    this.child.once('exit', () => running.delete(this.child));
    let partial = '';
    this.child.stdout?.on('data', (chunk: Buffer) => {
      partial += chunk.toString();
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) this.accept(line);
    });
    this.child.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Resolves with the first stdout line (already seen or still to come) that passes `test`. */
  waitForLine(test: (line: string) => boolean, timeoutMs: number, what: string): Promise<string> {
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
        reject(new Error(`no ${what} line within ${timeoutMs} ms\n${this.output()}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a signal and waits for exit (SIGKILL after the deadline). */
  async terminate(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000): Promise<Exit> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return this.exited;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }

  /** The tail of what the program printed, for failure messages. */
  output(): string {
    return `stdout:\n${this.lines.slice(-80).join('\n')}\nstderr:\n${this.stderr.slice(-8000)}`;
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
