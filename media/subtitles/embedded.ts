/**
 * Text subtitle streams inside an item's own media (MKV, MP4, ...): listed with ffprobe and one
 * extracted with ffmpeg, to WebVTT or (for ASS/SSA streams, so their styles survive) ASS.
 *
 * The tools read the media through this service's own signed proxy URL on loopback, never the
 * upstream URL: the proxy applies the SSRF rules (address policy, redirects re-checked, headers
 * of the item), which ffmpeg's own HTTP client knows nothing of. And they read nothing else:
 * the proxy passes the upstream's bytes through, so the container is sniffed from the first
 * bytes here and the tool held to that one file demuxer (media/tools/container-sniff.ts); a
 * playlist, manifest or script posing as a file is never handed to a tool that would follow
 * it. Each probe and extraction is a job of the process's tool pool (media/tools/), with a
 * deadline and an output cap. What a tool prints goes to the log, with the signed URL taken
 * out; callers get sentences of our own. Image subtitles (PGS, DVB, VobSub) are not text and
 * are left out.
 */
import { SUBTITLE_LIMITS } from '../../contracts/room/subtitles.js';
import { AppError } from '../../errors/index.js';
import { isErrorCode } from '../../contracts/errors.js';
import { CONTAINER_NAMES, confinedInput, SNIFF_BYTES, sniffContainer, type FileContainer } from '../tools/container-sniff.js';
import type { MediaTools } from '../tools/media-tools.js';
import type { ToolRun } from '../tools/run-tool.js';

export interface EmbeddedStream {
  /** ffprobe's stream index (over all streams of the file). */
  index: number;
  codec: string;
  language?: string;
  title?: string;
  /** What extraction gives: ASS for ASS/SSA streams, WebVTT for the others. */
  format: 'vtt' | 'ass';
}

/** What a probe found: the file's container (none: not a media file we read) and its text subtitle streams. */
export interface ProbedMedia {
  container?: FileContainer;
  streams: EmbeddedStream[];
}

/** The media as the tools read it: this service's proxy URL, and what is read (the pool's job key: media/read-key.ts). */
export interface ToolSource {
  url: string;
  identity: string;
}

/** Text subtitle codecs ffmpeg can write as WebVTT or ASS. */
const TEXT_CODECS = new Set(['subrip', 'srt', 'ass', 'ssa', 'webvtt', 'mov_text', 'text', 'microdvd', 'subviewer', 'subviewer1', 'realtext', 'sami', 'stl', 'jacosub', 'mpl2', 'pjs', 'vplayer']);

const PROBE_TIMEOUT_MS = 20_000;
const PROBE_OUTPUT_MAX_BYTES = 1024 * 1024;

/** The text subtitle streams of the media at `source`. */
export function listEmbedded(tools: MediaTools, source: ToolSource): Promise<ProbedMedia> {
  return tools.job(`probe\0${source.identity}`, async () => {
    const container = sniffContainer(await firstBytes(source.url));
    if (!container) return { streams: [] };
    const args = ['-v', 'error', ...confinedInput(container, source.url), '-select_streams', 's', '-show_entries', 'stream=index,codec_name:stream_tags=language,title', '-of', 'json'];
    const result = await tools.run('ffprobe', args, { timeoutMs: PROBE_TIMEOUT_MS, maxBytes: PROBE_OUTPUT_MAX_BYTES, what: 'reading the media\'s streams' });
    if (result.code !== 0) {
      logFailure(tools, 'ffprobe', result, source, container);
      throw new AppError('bad_gateway', `the media's streams could not be read: it starts like a ${CONTAINER_NAMES[container]} file, but ffprobe could not read it as one`);
    }
    const parsed = JSON.parse(result.stdout.toString('utf8')) as { streams?: Array<{ index: number; codec_name?: string; tags?: { language?: string; title?: string } }> };
    const streams = (parsed.streams ?? [])
      .filter((stream) => TEXT_CODECS.has(stream.codec_name ?? ''))
      .slice(0, SUBTITLE_LIMITS.embeddedMaxCount)
      .map((stream): EmbeddedStream => ({
        index: stream.index,
        codec: stream.codec_name ?? '',
        ...(stream.tags?.language && stream.tags.language !== 'und' ? { language: stream.tags.language } : {}),
        ...(stream.tags?.title ? { title: stream.tags.title } : {}),
        format: stream.codec_name === 'ass' || stream.codec_name === 'ssa' ? 'ass' : 'vtt',
      }));
    return { container, streams };
  });
}

/** Stream `stream` of the media at `source` (read as `container`, what its probe found) as WebVTT or ASS text. */
export function extractEmbedded(tools: MediaTools, source: ToolSource, container: FileContainer, stream: EmbeddedStream): Promise<string> {
  return tools.job(`extract\0${source.identity}\0${stream.index}`, async () => {
    const format = stream.format === 'ass' ? 'ass' : 'webvtt';
    const args = ['-v', 'error', '-nostdin', ...confinedInput(container, source.url), '-copyts', '-map', `0:${stream.index}`, '-c:s', format, '-protocol_whitelist', 'pipe', '-f', format, 'pipe:1'];
    const result = await tools.run('ffmpeg', args, { timeoutMs: SUBTITLE_LIMITS.extractTimeoutMs, maxBytes: SUBTITLE_LIMITS.fileMaxBytes, what: 'the extracted subtitles' });
    if (result.code !== 0) {
      logFailure(tools, 'ffmpeg', result, source, container);
      throw new AppError('bad_gateway', `the subtitle stream ${stream.index} could not be extracted from the ${CONTAINER_NAMES[container]} file`);
    }
    return result.stdout.toString('utf8');
  });
}

/**
 * The first bytes of the media, read through the proxy like the tools will (no redirects: the
 * proxy answers none). A refusal of the proxy (its own sentence and code) is passed on.
 */
async function firstBytes(url: string): Promise<Uint8Array> {
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(url, { headers: { range: `bytes=0-${SNIFF_BYTES - 1}` }, redirect: 'error', signal });
  } catch (err) {
    throw new AppError(signal.aborted ? 'deadline_exceeded' : 'bad_gateway', 'the media could not be read through the media proxy', [], { cause: err });
  }
  if (!response.ok) throw await proxyRefusal(response);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < SNIFF_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch (err) {
    throw new AppError('bad_gateway', 'the media could not be read through the media proxy', [], { cause: err });
  } finally {
    // The proxy may send the whole file when its upstream ignores Range: the rest is not needed.
    void reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, SNIFF_BYTES);
}

async function proxyRefusal(response: Response): Promise<AppError> {
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown };
    if (isErrorCode(body.code) && typeof body.message === 'string') return new AppError(body.code, body.message);
  } catch {
    // not one of our error bodies
  }
  return new AppError('bad_gateway', `the media proxy answered HTTP ${response.status} for the media`);
}

/** The tool's own words, for operators: the signed proxy URL (a credential until it expires) taken out. */
function logFailure(tools: MediaTools, tool: string, result: ToolRun, source: ToolSource, container: FileContainer): void {
  const stderr = result.stderr.split(source.url).join('<media>').trim();
  tools.logger.warn({ tool, code: result.code, container, stderr }, `${tool} could not read a proxied media file`);
}
