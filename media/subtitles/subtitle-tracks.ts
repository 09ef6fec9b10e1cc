/**
 * The subtitle tracks of a playlist item as a player needs them: the item's own tracks (URL,
 * uploaded file, or a named embedded stream), the streams its provider's source offers (a
 * Jellyfin or Emby server's text tracks; then its media is not searched itself), and the text
 * streams found inside its media,
 * each given out as WebVTT (vtt as is, srt converted here) or ASS (ass and ssa as is, drawn
 * in the browser by JASSUB). Who may read an item is the room's decision: the route asks it
 * (`playlist.playable`) before calling here, the same check as the play endpoint.
 *
 * URL tracks are fetched by this server through the media UpstreamClient (the SSRF rules, the
 * size cap), so a subtitle host needs no CORS for browsers. Results are cached briefly per
 * (room, item, source): an edit of the item's URL or of the track changes the key.
 */
import type { MediaItem, Subtitle } from '../../contracts/room/model.js';
import { formatFromName, servedFormat, SUBTITLE_LIMITS, type ServedFormat, type SubtitleFormatName } from '../../contracts/room/subtitles.js';
import { AppError } from '../../errors/index.js';
import { readLimited } from '../proxy/read-body.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import type { ProvidedSubtitle } from '../provider.js';
import type { MediaTools } from '../tools/media-tools.js';
import type { ToolSource } from '../tools/proxied-read.js';
import { extractEmbedded, listEmbedded, type ProbedMedia } from './embedded.js';
import type { SubtitleFiles } from './subtitle-files.js';
import type { TrackText } from './subtitle-read.js';
import { SubtitleTextError } from './subtitle-text.js';
import type { SubtitleWorkers } from './subtitle-workers.js';
import { TextCache } from './text-cache.js';

export type { TrackText } from './subtitle-read.js';
export { asServed } from './subtitle-read.js';

const URL_FETCH_TIMEOUT_MS = 30_000;

export interface TrackView {
  /** `0`, `1`, ... for the item's own tracks; `p<n>` for its provider's; `e<stream index>` for a stream found in the media. */
  id: string;
  name: string;
  language?: string;
  /** How it is served: vtt (a native track) or ass (JASSUB). */
  format: ServedFormat;
  source: 'url' | 'file' | 'embedded' | 'provider';
  default: boolean;
}

/**
 * The media as ffmpeg may read it: this service's own signed proxy URL on loopback, the cache
 * key of what is read from it (room, item, upstream identity) and the upstream's identity (the
 * tool pool's job key), or undefined when the item is not a proxied file (then it has no
 * embedded tracks to list).
 */
export type EmbeddedSource = () => Promise<(ToolSource & { key: string }) | undefined>;

/** The item's provider's subtitle streams (`MediaProvider.subtitles`), empty when it has none. */
export type ProvidedSource = () => Promise<ProvidedSubtitle[]>;

export class SubtitleTracks {
  private readonly texts = new TextCache<TrackText>((value) => value.text.length);
  private readonly streams = new TextCache<ProbedMedia>((value) => value.streams.length * 64, { maxEntries: 1000 });
  /** What providers offered, per item (it holds their request headers: never handed out). */
  private readonly provided = new TextCache<ProvidedSubtitle[]>((value) => value.length * 256, { maxEntries: 1000 });

  constructor(
    private readonly files: SubtitleFiles,
    private readonly client: UpstreamClient,
    private readonly tools: MediaTools,
    private readonly workers: SubtitleWorkers,
  ) {}

  async list(roomId: string, item: MediaItem | { id: string; subtitles: Subtitle[] }, embedded: EmbeddedSource, provided: ProvidedSource = noneProvided): Promise<TrackView[]> {
    const offered = await this.providedOf(roomId, item, provided);
    // A library server lists the streams inside its files itself: no need to read the file for them.
    const source = offered.length > 0 ? undefined : await embedded();
    const streams = source ? (await this.streamsOf(source)).streams : [];
    const fileFormats = await this.files.formats(roomId, item.subtitles.flatMap((track) => (track.fileId !== undefined ? [track.fileId] : [])));
    const own = item.subtitles.map((track, index): TrackView => {
      const stream = track.stream === undefined ? undefined : streams.find((candidate) => candidate.index === track.stream);
      const declared = track.fileId !== undefined ? fileFormats.get(track.fileId) : (track.format ?? (track.url !== undefined ? formatFromName(track.url) : undefined));
      const format: ServedFormat = stream ? stream.format : servedFormat(declared ?? 'vtt');
      return {
        id: String(index),
        name: track.name,
        ...(track.language !== undefined ? { language: track.language } : {}),
        format,
        source: track.url !== undefined ? 'url' : track.fileId !== undefined ? 'file' : 'embedded',
        default: track.default === true,
      };
    });
    const named = new Set(item.subtitles.flatMap((track) => (track.stream !== undefined ? [track.stream] : [])));
    const found = streams
      .filter((stream) => !named.has(stream.index))
      .map((stream): TrackView => ({
        id: `e${stream.index}`,
        name: stream.title ?? (stream.language ? `${stream.language} (embedded)` : `Embedded track ${stream.index}`),
        ...(stream.language ? { language: stream.language } : {}),
        format: stream.format,
        source: 'embedded',
        default: false,
      }));
    const fromProvider = offered.map(
      (track, index): TrackView => ({
        id: `p${index}`,
        name: track.name,
        ...(track.language !== undefined ? { language: track.language } : {}),
        format: servedFormat(formatFromName(track.url) ?? 'vtt'),
        source: 'provider',
        default: false,
      }),
    );
    return [...own, ...fromProvider, ...found];
  }

  /** One track's text, as the browser needs it; `not_found` for an unknown track id. */
  async text(roomId: string, item: MediaItem | { id: string; subtitles: Subtitle[] }, trackId: string, embedded: EmbeddedSource, provided: ProvidedSource = noneProvided): Promise<TrackText> {
    const providedIndex = /^p(\d+)$/.exec(trackId)?.[1];
    if (providedIndex !== undefined) {
      const track = (await this.providedOf(roomId, item, provided))[Number(providedIndex)];
      if (!track) throw new AppError('not_found', `the item has no subtitle track ${trackId}`);
      return this.texts.get(`${roomId}\0${item.id}\0provided\0${track.url}`, () => this.fromUrl(track.url, formatFromName(track.url), track.headers));
    }
    const embeddedIndex = /^e(\d+)$/.exec(trackId)?.[1];
    const track: Subtitle | undefined = embeddedIndex !== undefined ? { name: trackId, stream: Number(embeddedIndex) } : item.subtitles[Number(trackId)];
    if (!track || (embeddedIndex === undefined && !/^\d+$/.test(trackId))) throw new AppError('not_found', `the item has no subtitle track ${trackId}`);
    if (track.url !== undefined) {
      const url = track.url;
      return this.texts.get(`${roomId}\0${item.id}\0url\0${url}\0${track.format ?? ''}`, () => this.fromUrl(url, track.format));
    }
    if (track.fileId !== undefined) {
      const fileId = track.fileId;
      return this.texts.get(`${roomId}\0file\0${fileId}`, () => this.fromFile(roomId, fileId));
    }
    const source = await embedded();
    if (!source) throw new AppError('not_found', 'the item has no embedded subtitles: only files played through the media proxy are read for them');
    const index = track.stream!;
    return this.texts.get(`${roomId}\0${item.id}\0stream\0${source.key}\0${index}`, async () => {
      const { container, streams } = await this.streamsOf(source);
      const stream = streams.find((candidate) => candidate.index === index);
      if (!stream || !container) throw new AppError('not_found', `the media has no text subtitle stream ${index}`);
      const text = await extractEmbedded(this.tools, source, container, stream);
      // ffmpeg wrote it, but from a stream of the member's file: the same caps as any other.
      return refusedAs(this.workers.serve({ text }, stream.format), (message) => new AppError('bad_gateway', `the subtitle stream ${index} of the media ${message}`));
    });
  }

  private providedOf(roomId: string, item: { id: string }, provided: ProvidedSource): Promise<ProvidedSubtitle[]> {
    const url = 'url' in item && typeof item.url === 'string' ? item.url : '';
    return this.provided.get(`${roomId}\0${item.id}\0${url}`, provided);
  }

  private streamsOf(source: ToolSource & { key: string }): Promise<ProbedMedia> {
    return this.streams.get(source.key, () => listEmbedded(this.tools, source));
  }

  /** `headers`: a provider's (a library server's token), sent to that URL only. */
  private async fromUrl(url: string, declared: SubtitleFormatName | undefined, headers: Record<string, string> = {}): Promise<TrackText> {
    // One deadline for the whole fetch, body included: a host that trickles bytes is given up on.
    const signal = AbortSignal.timeout(URL_FETCH_TIMEOUT_MS);
    const reply = await this.client.request({ url, headers: { accept: 'text/vtt, application/x-subrip, text/plain, */*', ...headers }, signal });
    if (reply.status !== 200) {
      reply.body.destroy();
      throw new AppError('bad_gateway', `the subtitle URL answered HTTP ${reply.status}`);
    }
    const bytes = await readLimited(reply, SUBTITLE_LIMITS.fileMaxBytes, 'subtitle file');
    return refusedAs(
      this.workers.serve({ bytes }, declared ?? formatFromName(reply.url) ?? formatFromName(url)),
      (message) => new AppError('bad_gateway', `the subtitle file at the URL ${message}`),
    );
  }

  /** An uploaded file's format was read from its text at upload: it is not guessed again. */
  private async fromFile(roomId: string, fileId: string): Promise<TrackText> {
    const file = await this.files.get(roomId, fileId);
    if (!file) throw new AppError('not_found', `the room has no subtitle file ${fileId} (the track names a file of another room, or one that is gone)`);
    // Files stored before the caps (issue 38) may break one: the room must replace them.
    return refusedAs(this.workers.serve({ text: file.text }, file.format), (message) => new AppError('conflict', `the uploaded subtitle file ${file.name} ${message}; upload it again within the limits`));
  }
}

const noneProvided: ProvidedSource = () => Promise.resolve([]);

/** A file the workers refused, as the caller's error (the refusal's message after its own subject). */
async function refusedAs(served: Promise<TrackText>, failure: (message: string) => AppError): Promise<TrackText> {
  try {
    return await served;
  } catch (error) {
    if (error instanceof SubtitleTextError) throw failure(error.message);
    throw error;
  }
}
