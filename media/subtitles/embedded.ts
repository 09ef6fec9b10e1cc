/**
 * Text subtitle streams inside an item's own media (MKV, MP4): listed with ffprobe and one
 * extracted with ffmpeg, to WebVTT or (for ASS/SSA streams, so their styles survive) ASS.
 *
 * ffmpeg reads the media through this service's own signed proxy URL on loopback, never the
 * upstream URL: the proxy applies the SSRF rules (address policy, redirects re-checked, headers
 * of the item), which ffmpeg's own HTTP client knows nothing of. Both tools run without a
 * shell, with a deadline and an output cap; image subtitles (PGS, DVB, VobSub) are not text
 * and are left out.
 */
import { spawn } from 'node:child_process';
import { SUBTITLE_LIMITS } from '../../contracts/room/subtitles.js';
import { AppError } from '../../errors/app-error.js';

export interface EmbeddedStream {
  /** ffprobe's stream index (over all streams of the file). */
  index: number;
  codec: string;
  language?: string;
  title?: string;
  /** What extraction gives: ASS for ASS/SSA streams, WebVTT for the others. */
  format: 'vtt' | 'ass';
}

/** Text subtitle codecs ffmpeg can write as WebVTT or ASS. */
const TEXT_CODECS = new Set(['subrip', 'srt', 'ass', 'ssa', 'webvtt', 'mov_text', 'text', 'microdvd', 'subviewer', 'subviewer1', 'realtext', 'sami', 'stl', 'jacosub', 'mpl2', 'pjs', 'vplayer']);

const PROBE_TIMEOUT_MS = 20_000;
const PROBE_OUTPUT_MAX_BYTES = 1024 * 1024;

interface Run {
  stdout: Buffer;
  code: number | null;
  stderr: string;
}

/** Runs a tool with arguments (no shell), stopping it past `timeoutMs` or `maxBytes` of output. */
function run(tool: string, args: string[], timeoutMs: number, maxBytes: number, what: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let failure: AppError | undefined;
    const stop = (error: AppError) => {
      failure ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(new AppError('deadline_exceeded', `${what} took longer than ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) stop(new AppError('bad_gateway', `${what} is more than the ${maxBytes} bytes allowed`));
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new AppError('unavailable', `${tool} could not be started (${error.message}): embedded subtitles need ffmpeg installed`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (failure) reject(failure);
      else resolve({ stdout: Buffer.concat(chunks), code, stderr });
    });
  });
}

const lastLine = (text: string) => text.trim().split('\n').pop()?.slice(0, 300) ?? '';

/** The text subtitle streams of the media at `url` (this service's proxy URL). */
export async function listEmbedded(url: string): Promise<EmbeddedStream[]> {
  const args = ['-v', 'error', '-select_streams', 's', '-show_entries', 'stream=index,codec_name:stream_tags=language,title', '-of', 'json', url];
  const result = await run('ffprobe', args, PROBE_TIMEOUT_MS, PROBE_OUTPUT_MAX_BYTES, 'reading the media\'s streams');
  if (result.code !== 0) throw new AppError('bad_gateway', `the media's streams could not be read: ${lastLine(result.stderr)}`);
  const parsed = JSON.parse(result.stdout.toString('utf8')) as { streams?: Array<{ index: number; codec_name?: string; tags?: { language?: string; title?: string } }> };
  return (parsed.streams ?? [])
    .filter((stream) => TEXT_CODECS.has(stream.codec_name ?? ''))
    .slice(0, SUBTITLE_LIMITS.embeddedMaxCount)
    .map((stream) => ({
      index: stream.index,
      codec: stream.codec_name ?? '',
      ...(stream.tags?.language && stream.tags.language !== 'und' ? { language: stream.tags.language } : {}),
      ...(stream.tags?.title ? { title: stream.tags.title } : {}),
      format: stream.codec_name === 'ass' || stream.codec_name === 'ssa' ? 'ass' : 'vtt',
    }));
}

/** Stream `index` of the media at `url` as WebVTT or ASS text. */
export async function extractEmbedded(url: string, stream: EmbeddedStream): Promise<string> {
  const args = ['-v', 'error', '-nostdin', '-i', url, '-copyts', '-map', `0:${stream.index}`, '-c:s', stream.format === 'ass' ? 'ass' : 'webvtt', '-f', stream.format === 'ass' ? 'ass' : 'webvtt', 'pipe:1'];
  const result = await run('ffmpeg', args, SUBTITLE_LIMITS.extractTimeoutMs, SUBTITLE_LIMITS.fileMaxBytes, 'the extracted subtitles');
  if (result.code !== 0) throw new AppError('bad_gateway', `the subtitle stream ${stream.index} could not be extracted: ${lastLine(result.stderr)}`);
  return result.stdout.toString('utf8');
}
