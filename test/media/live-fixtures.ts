/**
 * What the livestream tests share: ffmpeg publishing a generated test pattern with audio over
 * RTMP, ffprobe reading what the service serves, signed playback links for a member, and
 * waiting on a condition with a deadline.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { MediaGrants, mediaGrantKey } from '../../media/media-grant.js';
import { waitFor } from '../fixtures/deadline.js';
import type { GatewayBed } from '../gateways/bed.js';

export interface Publisher {
  child: ChildProcess;
  /** Resolves once ffmpeg has sent this many seconds of the stream (its -progress reports). */
  sent(seconds: number, timeoutMs?: number): Promise<void>;
  /** Resolves when ffmpeg exits, with its code and the tail of its stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
  stop(): Promise<void>;
}

export interface PublishOptions {
  /** The muxer: flv (RTMP, the default), rtsp (to an RTSP server), mpegts (SRT). */
  format?: 'flv' | 'rtsp' | 'mpegts';
  /** The audio encoder's arguments (default AAC at 64 kb/s); `['-c:a', 'pcm_mulaw', '-ar', '8000']` is a camera's G.711. */
  audio?: string[];
}

/** ffmpeg pushing 320x240 testsrc2 at 30 fps (1 s GOP) with a sine tone, in real time. */
export function publish(url: string, options: PublishOptions = {}): Publisher {
  const format = options.format ?? 'flv';
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner', '-loglevel', 'error', '-nostdin',
      '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30',
      '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30',
      ...(options.audio ?? ['-c:a', 'aac', '-b:a', '64k']),
      '-progress', 'pipe:1', '-stats_period', '0.2',
      ...(format === 'rtsp' ? ['-rtsp_transport', 'tcp'] : []),
      '-f', format, url,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let sentUs = 0;
  let line = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (line + chunk.toString('utf8')).split('\n');
    line = lines.pop() ?? '';
    for (const entry of lines) {
      const match = /^out_time_us=(\d+)$/.exec(entry.trim());
      if (match) {
        sentUs = Number(match[1]);
      }
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
  return {
    child,
    exited,
    async sent(seconds, timeoutMs = 20_000) {
      await waitFor(`ffmpeg to send ${seconds} s of the stream`, () => (sentUs >= seconds * 1e6 ? true : undefined), timeoutMs);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface Probe {
  codecs: Record<string, string>;
  stderr: string;
  code: number | null;
}

/** ffprobe's view of `url`: the codec of each stream type (video, audio). */
export function ffprobe(url: string, extra: string[] = [], timeoutMs = 20_000): Promise<Probe> {
  return new Promise((resolve) => {
    const child = spawn('ffprobe', ['-v', 'error', ...extra, '-show_entries', 'stream=codec_type,codec_name', '-of', 'json', url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      const codecs: Record<string, string> = {};
      try {
        const parsed = JSON.parse(stdout) as { streams?: Array<{ codec_type: string; codec_name: string }> };
        // FLV's onMetaData shows up as a `data` stream; only the media tracks matter.
        for (const stream of parsed.streams ?? []) if (stream.codec_type === 'video' || stream.codec_type === 'audio') codecs[stream.codec_type] = stream.codec_name;
      } catch {
        // No JSON: the failure is in stderr.
      }
      resolve({ codecs, stderr: stderr.slice(-2000), code });
    });
  });
}

/** A signed playback link prefix `/media/live/<token>` for a member on an item. */
export function liveLink(bed: GatewayBed, grant: { roomId: string; userId: string; sessionId: string; mediaId: string; resource?: string; expiresAt?: number }): string {
  const grants = new MediaGrants(mediaGrantKey(bed.config.credential_encryption_key));
  const token = grants.sign({ resource: 'live', expiresAt: Date.now() + 10 * 60_000, ...grant });
  return `/media/live/${token}`;
}

/** The status, type and first `count` bytes of a GET (the body is then abandoned). */
export async function firstBytes(url: string, count: number): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body) {
    // @types/node 20 types fetch's body as ReadableStream<any>; it yields bytes.
    const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    while (total < count) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
      total += value.length;
    }
  }
  abort.abort();
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.concat(chunks) };
}

export interface OpenFlv {
  status: number;
  /** Resolves once the response ends or breaks (the server cut it), with the bytes read by then. */
  ended: Promise<number>;
  close(): void;
}

/** An HTTP-FLV response read continuously, as a player does, until it ends or `close()`. */
export async function openFlv(url: string): Promise<OpenFlv> {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  const reader = response.body?.getReader() as ReadableStreamDefaultReader<Uint8Array> | undefined;
  const ended = (async () => {
    let total = 0;
    if (!reader) return total;
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return total;
        total += value.length;
      }
    } catch {
      return total;
    }
  })();
  return { status: response.status, ended, close: () => abort.abort() };
}
