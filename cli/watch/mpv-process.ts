/**
 * The mpv that `svc watch` drives: one it starts (idle, with its IPC socket in a private
 * temporary folder, stopped when the command ends), or one already running that was started
 * with `--input-ipc-server` (`--ipc`), which is left running. Only fixed options are passed on
 * the command line; what comes from the room (URLs, titles) goes over IPC only (mpv-ipc.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../errors/index.js';
import { MpvIpc } from './mpv-ipc.js';

export interface RunningMpv {
  ipc: MpvIpc;
  /** The IPC socket (another tool may attach to it too). */
  socketPath: string;
  /** Whether `svc watch` started it (and so stops it). */
  owned: boolean;
  /** Resolves when mpv exits or its socket closes. */
  gone: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Options of an mpv we start. `idle` and `keep-open`: it stays up between items and at an
 * item's end (the room, not mpv, moves on); `force-window`: the window (and the OSD's words)
 * shows while nothing plays; `no-terminal`: the terminal stays `svc watch`'s own.
 */
const LAUNCH_OPTIONS = ['--idle=yes', '--keep-open=yes', '--force-window=yes', '--no-terminal'];

export async function startMpv(mpvPath: string): Promise<RunningMpv> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-watch-'));
  const socketPath = join(dir, 'mpv.sock');
  const child = spawn(mpvPath, [...LAUNCH_OPTIONS, `--input-ipc-server=${socketPath}`], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
    child.once('error', (error) => resolve({ code: null, error }));
    child.once('exit', (code) => resolve({ code }));
  });
  const failure = exited.then(({ code, error }) => {
    if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
      return new AppError('failed_precondition', `mpv was not found at ${mpvPath}: install it (Debian and Ubuntu: apt install mpv) or give its path with --mpv`);
    }
    return new AppError('unavailable', `mpv (${mpvPath}) stopped before it was ready${error ? `: ${error.message}` : ` (exit code ${code})`}${stderr ? `: ${stderr.trim()}` : ''}`);
  });
  let ipc: MpvIpc;
  try {
    ipc = await Promise.race([MpvIpc.connect(socketPath), failure.then((err) => Promise.reject(err))]);
  } catch (err) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const gone = Promise.race([exited.then(() => undefined), new Promise<void>((resolve) => ipc.onClose(resolve))]);
  return {
    ipc,
    socketPath,
    owned: true,
    gone,
    stop: async () => {
      ipc.close();
      await stopChild(child, exited);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** An mpv someone started with `--input-ipc-server=<socketPath>`; left running at the end. */
export async function attachMpv(socketPath: string): Promise<RunningMpv> {
  const ipc = await MpvIpc.connect(socketPath, 1000);
  const gone = new Promise<void>((resolve) => ipc.onClose(resolve));
  return { ipc, socketPath, owned: false, gone, stop: () => Promise.resolve(ipc.close()) };
}

async function stopChild(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
  await exited;
  clearTimeout(timer);
}
