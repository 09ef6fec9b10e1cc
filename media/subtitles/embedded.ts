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
 * out (media/tools/proxied-read.ts); callers get sentences of our own. Image subtitles (PGS, DVB, VobSub) are not text and
 * are left out.
 */
import { SUBTITLE_LIMITS } from '../../contracts/room/subtitles.js';
import { AppError } from '../../errors/index.js';
import { CONTAINER_NAMES, confinedInput, sniffContainer, type FileContainer } from '../tools/container-sniff.js';
import type { MediaTools } from '../tools/media-tools.js';
import { firstBytes, logFailure, type ToolSource } from '../tools/proxied-read.js';

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

/** Text subtitle codecs ffmpeg can write as WebVTT or ASS. */
const TEXT_CODECS = new Set(['subrip', 'srt', 'ass', 'ssa', 'webvtt', 'mov_text', 'text', 'microdvd', 'subviewer', 'subviewer1', 'realtext', 'sami', 'stl', 'jacosub', 'mpl2', 'pjs', 'vplayer']);

const PROBE_TIMEOUT_MS = 20_000;
const PROBE_OUTPUT_MAX_BYTES = 1024 * 1024;

/** The text subtitle streams of the media at `source`. */
export function listEmbedded(tools: MediaTools, source: ToolSource): Promise<ProbedMedia> {
  return tools.job(`probe\0${source.identity}`, async () => {
    const container = sniffContainer(await firstBytes(source.url, PROBE_TIMEOUT_MS));
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
