/**
 * One ffmpeg reading a pulled live stream (docs/2026-11-29-pulled-live-streams.md) and writing
 * FLV to its stdout, which node-media-server's FLV reader turns into the packets a publish over
 * RTMP would bring: the LiveStream they go to cannot tell a pull from a publish. Arguments are a
 * list (no shell), the environment is PATH alone, the input is held to one demuxer and its
 * protocols (media/live/pull-input.ts).
 *
 * Codecs: H.264 video and AAC or MP3 audio are copied, as FLV and HLS take them. Anything else
 * (HEVC, a camera's G.711 or PCM audio) needs converting, which is decided from ffmpeg's own
 * description of its input ("Stream #0:1: Audio: pcm_mulaw"), printed before any output is
 * written: a copy that would not play ends at once with `codecs`, and the caller starts again
 * converting what needs it (H.264 with a keyframe every second, AAC), one rung, no ladder.
 *
 * ffmpeg's RTSP client follows a server's redirect to another host without asking, which would
 * skip the address check: it reads RTSP through a guard that never passes a redirect on
 * (media/live/rtsp-guard.ts), and the pull ends (`refused`) when the guard saw one. Other
 * protocols' redirects, should ffmpeg follow one, end it as soon as ffmpeg says so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { Logger } from '../../observability/index.js';
import { AppError } from '../../errors/index.js';
import type { PullInput } from '../../media/index.js';
import { newFlvParser, type AvPacket } from './nms.js';

export interface Conversion {
  video: boolean;
  audio: boolean;
}

export type PullEnd =
  /** The source's codecs need `convert`: start again with it. */
  | { kind: 'codecs'; convert: Conversion }
  /** Not to be tried again: the source did something the policy forbids. */
  | { kind: 'refused'; error: AppError }
  /** The source stopped or failed: worth trying again later. */
  | { kind: 'ended'; reason: string }
  | { kind: 'stopped' };

export interface PullProcessOptions {
  input: PullInput;
  convert: Conversion;
  onPacket(packet: AvPacket): void;
  /** For an HLS source: copies its segments into ffmpeg's stdin until aborted (media/live/hls-feed.ts). */
  feed?: (stdin: Writable, signal: AbortSignal) => Promise<void>;
  logger: Logger;
}

const COPYABLE_VIDEO = new Set(['h264']);
const COPYABLE_AUDIO = new Set(['aac', 'mp3']);
const STDERR_KEPT_CHARS = 4000;
/** Lines of ffmpeg's input description: "  Stream #0:0: Video: h264 (High), ..." or "Stream #0:1[0x101]: Audio: aac (LC) ...". */
const STREAM_LINE = /Stream #0:\d+(?:\[[0-9a-fx]+\])?(?:\([^)]*\))?: (Video|Audio): ([a-z0-9_]+)/;

function redirectRefusal(): AppError {
  return new AppError('forbidden', "url: the source redirected the pull elsewhere; this server does not follow a stream's redirects", [{ key: 'url', message: 'redirected elsewhere, which a pull does not follow' }]);
}

function outputArgs(convert: Conversion): string[] {
  return [
    // One video and one audio stream: a camera's data or ONVIF metadata streams do not fit FLV.
    '-map', '0:v:0?', '-map', '0:a:0?', '-dn', '-sn',
    ...(convert.video
      ? ['-c:v', 'libx264', '-preset', 'veryfast', '-tune', 'zerolatency', '-pix_fmt', 'yuv420p', '-force_key_frames', 'expr:gte(t,n_forced*1)']
      : ['-c:v', 'copy']),
    ...(convert.audio ? ['-c:a', 'aac', '-b:a', '128k', '-ac', '2'] : ['-c:a', 'copy']),
    // Each packet leaves at once: AVIO's 32 KiB buffer would hold a small stream's first frames for a fraction of a second.
    '-flush_packets', '1',
    '-f', 'flv', '-flvflags', 'no_duration_filesize',
    'pipe:1',
  ];
}

export class PullProcess {
  readonly ended: Promise<PullEnd>;
  private readonly child: ChildProcess;
  private readonly feedAbort = new AbortController();
  private end: PullEnd | undefined;
  private stderr = '';

  constructor(private readonly options: PullProcessOptions) {
    const { input, convert } = options;
    const args = [
      '-hide_banner', '-nostdin', '-nostats',
      // info: ffmpeg describes its input (the codecs decided on below) and says when it redirects.
      '-loglevel', 'info',
      // Start as soon as the streams are known: half a second of probing at most, nothing buffered on the way in.
      '-fflags', 'nobuffer', '-analyzeduration', '500000', '-probesize', '500000',
      ...input.args,
      ...outputArgs(convert),
    ];
    this.child = spawn('ffmpeg', args, { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, shell: false });
    const child = this.child;
    const parser = newFlvParser((packet) => options.onPacket(packet));
    let decided = false;
    const held: Buffer[] = [];
    const codecs: { video?: string; audio?: string } = {};
    let pending = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderr = (this.stderr + text).slice(-STDERR_KEPT_CHARS);
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        if (/Redirecting to/i.test(line)) {
          this.finish({ kind: 'refused', error: redirectRefusal() });
          return;
        }
        const stream = decided ? null : STREAM_LINE.exec(line);
        if (stream && !line.includes('->')) {
          if (stream[1] === 'Video') codecs.video ??= stream[2]!;
          else codecs.audio ??= stream[2]!;
        }
        if (!decided && line.startsWith('Output #0')) {
          decided = true;
          const needs = {
            video: convert.video || (codecs.video !== undefined && !COPYABLE_VIDEO.has(codecs.video)),
            audio: convert.audio || (codecs.audio !== undefined && !COPYABLE_AUDIO.has(codecs.audio)),
          };
          if (needs.video !== convert.video || needs.audio !== convert.audio) {
            options.logger.info({ source: input.shown, video: codecs.video, audio: codecs.audio }, 'the pulled stream needs converting for FLV and HLS; starting again with a transcode');
            this.finish({ kind: 'codecs', convert: needs });
            return;
          }
          for (const bytes of held.splice(0)) this.parse(parser, bytes);
        }
      }
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      if (this.end) return;
      if (decided) this.parse(parser, chunk);
      else held.push(chunk);
    });
    child.stdin?.on('error', () => undefined);
    void options.input.guard?.redirected.then(() => this.finish({ kind: 'refused', error: redirectRefusal() }));
    this.ended = new Promise<PullEnd>((resolve) => {
      child.once('error', (err) => {
        this.finish({ kind: 'ended', reason: `ffmpeg could not be started: ${err.message}` });
        resolve(this.end!);
      });
      child.once('close', (code, signal) => {
        this.feedAbort.abort();
        this.finish({ kind: 'ended', reason: `ffmpeg exited (${code ?? signal ?? 'unknown'}): ${this.lastLine()}` });
        resolve(this.end!);
      });
    });
    if (options.feed && child.stdin) {
      const stdin = child.stdin;
      options.feed(stdin, this.feedAbort.signal).then(
        () => {
          stdin.end();
        },
        (err: unknown) => {
          if (this.feedAbort.signal.aborted) return;
          if (err instanceof AppError && err.code === 'forbidden') {
            // The upstream client refused a hop (the playlist, a variant, a segment or a redirect): name the field.
            this.finish({ kind: 'refused', error: new AppError('forbidden', `url: ${err.message}`, [{ key: 'url', message: err.message }]) });
          } else {
            this.finish({ kind: 'ended', reason: `the HLS source: ${(err as Error).message}` });
          }
        },
      );
    } else {
      child.stdin?.end();
    }
  }

  /** Ends the pull (the stream is no longer wanted). */
  stop(): void {
    this.finish({ kind: 'stopped' });
  }

  private parse(parser: ReturnType<typeof newFlvParser>, bytes: Buffer): void {
    const error = parser.parserData(bytes);
    if (error !== null) this.finish({ kind: 'ended', reason: `ffmpeg's FLV could not be read: ${error}` });
  }

  /** The last line of ffmpeg's complaints, with the URL's secrets removed: for the log only. */
  private lastLine(): string {
    let text = this.stderr.trim().split('\n').slice(-3).join(' | ');
    for (const secret of this.options.input.secrets) text = text.split(secret).join('***');
    return text.slice(0, 500);
  }

  private finish(end: PullEnd): void {
    if (this.end) return;
    this.end = end;
    this.options.input.guard?.close();
    this.feedAbort.abort();
    const child = this.child;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      timer.unref();
      child.once('close', () => clearTimeout(timer));
    }
  }
}
