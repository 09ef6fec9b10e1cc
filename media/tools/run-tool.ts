/**
 * Runs one media tool process (ffprobe, ffmpeg) the way every job of media/tools/ does: the
 * arguments as a list (no shell), stdin closed, an environment of PATH alone (ffmpeg's HTTP
 * client would otherwise honour `http_proxy` and friends from ours), a deadline, and a cap on
 * what it may print. Its stderr is kept (the first 4 KiB) for the log only: it names URLs with
 * signed tokens and the demuxer's complaints, which are not the caller's to read, so failures
 * here carry sentences of our own.
 */
import { spawn } from 'node:child_process';
import { AppError } from '../../errors/index.js';

export type MediaToolName = 'ffprobe' | 'ffmpeg';

export interface ToolRun {
  stdout: Buffer;
  /** Exit code; null when the process ended on a signal. */
  code: number | null;
  /** What the tool printed on stderr (cut at 4 KiB): for the log, never for the caller. */
  stderr: string;
}

export interface ToolLimits {
  timeoutMs: number;
  maxBytes: number;
  /** What the output is, for the caller: "reading the media's streams". */
  what: string;
}

const STDERR_KEPT_CHARS = 4096;

/** Runs `tool` with `args`, stopping it past `limits.timeoutMs` or `limits.maxBytes` of output. */
export function runTool(tool: MediaToolName, args: string[], limits: ToolLimits): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, shell: false });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: AppError | undefined;
    const stop = (error: AppError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new AppError('deadline_exceeded', `${limits.what} took longer than ${Math.round(limits.timeoutMs / 1000)} s`)), limits.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) stop(new AppError('bad_gateway', `${limits.what} came to more than the ${limits.maxBytes} bytes allowed`));
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < STDERR_KEPT_CHARS) stderr = (stderr + chunk.toString('utf8')).slice(0, STDERR_KEPT_CHARS);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new AppError('unavailable', `${tool} could not be started: embedded subtitles need ffmpeg installed on the server`, [], { cause: error }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else resolve({ stdout: Buffer.concat(chunks), code, stderr });
    });
  });
}
