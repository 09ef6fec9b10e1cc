/**
 * HLS for one live stream: Debian's `ffmpeg` reads the stream's FLV on stdin (the same bytes
 * an HTTP-FLV viewer gets, so no second RTMP connection and no RTMP playback to secure) and
 * writes a rolling playlist with codec copy: no re-encoding, so one process per stream costs
 * little CPU. Segments last about 1 s (cut on keyframes, so a publisher's GOP of 1-2 s gives
 * 1-2 s segments); the playlist keeps the last 6 and ffmpeg deletes older files. Segments are
 * always `.ts` on disk; `rtmp.tsDisguisedAsPng` only changes how they are named to clients
 * (routes/media-live.ts), so the setting applies live to a running stream.
 *
 * Its input is the publisher's (a member's) bytes, so ffmpeg is held to the FLV demuxer on the
 * pipe and the HLS muxer writing files. It is not a job of the media tool pool
 * (media/tools/media-tools.ts): it lives as long as its stream, and the streams bound it (one per
 * live item with a published key, each with a holder the room lets publish).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../observability/index.js';

export const PLAYLIST_FILE = 'index.m3u8';
const SEGMENT_SECONDS = 1;
const PLAYLIST_SEGMENTS = 6;
/** ffmpeg's stdin may fall this far behind before the stream stops feeding it (it is stuck). */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

export class HlsTransmuxer {
  private process: ChildProcess | undefined;
  private stopped = false;
  /** Settles when the process is gone (exited, or never started). */
  private gone: Promise<void> = Promise.resolve();

  private constructor(
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** Starts ffmpeg writing into `dir` (created empty). */
  static async start(dir: string, logger: Logger): Promise<HlsTransmuxer> {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const transmuxer = new HlsTransmuxer(dir, logger);
    transmuxer.spawn();
    return transmuxer;
  }

  private spawn(): void {
    const args = [
      '-hide_banner',
      '-loglevel', 'error',
      // The publisher's FLV is the input and nothing it says may open more (docs/2026-11-29-media-tool-pool.md):
      // the FLV demuxer only, reading the pipe only.
      '-protocol_whitelist', 'pipe',
      '-format_whitelist', 'flv',
      '-f', 'flv',
      // Start muxing as soon as both tracks' headers are in: the first segment comes sooner.
      '-probesize', '32768',
      '-analyzeduration', '0',
      '-i', 'pipe:0',
      '-c', 'copy',
      '-f', 'hls',
      '-hls_time', String(SEGMENT_SECONDS),
      '-hls_list_size', String(PLAYLIST_SEGMENTS),
      '-hls_flags', 'delete_segments+independent_segments+temp_file',
      '-hls_segment_filename', join(this.dir, 'seg%d.ts'),
      // The HLS muxer writes files in the stream's folder and opens nothing else.
      '-protocol_whitelist', 'file',
      join(this.dir, PLAYLIST_FILE),
    ];
    // PATH alone: nothing of this process's environment (a proxy setting, secrets) reaches ffmpeg.
    const child = spawn('ffmpeg', args, { stdio: ['pipe', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    this.process = child;
    this.gone = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => resolve());
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    child.stdin?.on('error', () => undefined);
    child.on('error', (err) => this.logger.error({ err }, 'could not start ffmpeg for HLS; the stream is still served as FLV'));
    child.on('exit', (code, signal) => {
      if (!this.stopped) this.logger.warn({ code, signal, stderr: stderr.trim() }, 'ffmpeg (HLS) exited while the stream was live');
    });
  }

  /** Feeds FLV bytes; dropped once ffmpeg cannot keep up (it would only grow memory). */
  write(chunk: Buffer): void {
    const stdin = this.process?.stdin;
    if (!stdin || stdin.destroyed || this.stopped) return;
    if (stdin.writableLength > MAX_PENDING_BYTES) {
      this.logger.warn('ffmpeg (HLS) is not reading its input; stopping HLS for this stream');
      this.process?.kill('SIGKILL');
      return;
    }
    stdin.write(chunk);
  }

  /** Stops ffmpeg and removes the stream's files. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    const child = this.process;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.kill('SIGTERM');
      await this.gone;
      clearTimeout(timer);
    }
    await rm(this.dir, { recursive: true, force: true });
  }
}
