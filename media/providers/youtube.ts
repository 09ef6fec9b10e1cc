/**
 * `youtube`: a YouTube video, played in each browser by YouTube's embedded player (IFrame
 * Player API), kept in step by the same sync engine through an adapter
 * (web/src/player/players/youtube-player.ts). Nothing is fetched or proxied by this service:
 * the play endpoint answers the canonical watch URL, and the item starts where its link says
 * (`t=90`, `t=1m30s`, `start=90`). A playlist link is added as its videos by the web client,
 * which asks the embedded player for the list; one item is one video.
 *
 * Where the player comes from is configuration (`youtube.iframe_api_url`, `youtube.embed_origin`):
 * the web client loads that script and frames that origin, and the content security policy
 * admits exactly those two origins (gateways/http/web-client.ts). The end-to-end test points
 * them at a local stand-in of the API's documented surface (test/fixtures/youtube-standin.ts).
 */
import { AppError, type FieldIssue } from '../../errors/index.js';
import type { MediaItem } from '../../contracts/room/model.js';
import type { MediaProvider, PlayInfo, Upstream } from '../provider.js';

/** Where the browser loads the IFrame API from and which origin its player frames come from. */
export interface EmbedSource {
  script: string;
  frameOrigin: string;
}

export interface YouTubeLink {
  videoId: string | null;
  listId: string | null;
  /** Seconds from the link's `t` or `start`; 0 when it has none. */
  start: number;
}

const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);
const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const LIST_ID = /^[A-Za-z0-9_-]{2,64}$/;
/** `t`/`start`: plain seconds (`90`, `90s`) or `1h2m3s` parts. */
const TIME = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/;

function seconds(text: string | null): number {
  if (!text) return 0;
  const match = TIME.exec(text);
  if (!match) return 0;
  const [, h = '0', m = '0', s = '0'] = match;
  return Number(h) * 3600 + Number(m) * 60 + Number(s);
}

/** The video, playlist and start a YouTube link names; null when it is not a YouTube link. */
export function parseYouTubeLink(url: string): YouTubeLink | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const host = parsed.hostname.toLowerCase();
  const query = parsed.searchParams;
  let videoId: string | null = null;
  if (host === 'youtu.be') videoId = parsed.pathname.slice(1).split('/')[0] ?? null;
  else if (HOSTS.has(host)) {
    const [, first, second] = parsed.pathname.split('/');
    if (first === 'watch') videoId = query.get('v');
    else if (first === 'embed' || first === 'shorts' || first === 'live' || first === 'v') videoId = second ?? null;
    else if (first !== 'playlist') return null;
  } else return null;
  if (videoId !== null && !VIDEO_ID.test(videoId)) videoId = null;
  const list = query.get('list');
  // The fragment form (`#t=90`) is what YouTube's own "copy URL at current time" once produced.
  const start = seconds(query.get('t') ?? query.get('start') ?? new URLSearchParams(parsed.hash.slice(1)).get('t'));
  return { videoId, listId: list !== null && LIST_ID.test(list) ? list : null, start };
}

export class YouTubeProvider implements MediaProvider {
  readonly name = 'youtube';
  readonly label = 'YouTube video';
  readonly proxy = 'never' as const;
  readonly live = false;
  readonly seeking = 'always' as const;

  constructor(readonly embed: EmbedSource) {}

  check(fields: { url: string; headers: Record<string, string> }): FieldIssue[] {
    const link = parseYouTubeLink(fields.url);
    if (!link) return [{ key: 'url', message: 'must be a YouTube link, such as https://www.youtube.com/watch?v=dQw4w9WgXcQ or https://youtu.be/dQw4w9WgXcQ' }];
    if (!link.videoId) {
      return [
        {
          key: 'url',
          message: link.listId
            ? 'names a playlist: add it from the web client, which adds each of its videos, or add one video\'s link'
            : 'must name a video (watch?v=<11 characters>, youtu.be/<id>, /shorts/<id> or /embed/<id>)',
        },
      ];
    }
    const names = Object.keys(fields.headers);
    return names.map((name) => ({ key: `headers.${name}`, message: 'YouTube items take no headers: their player fetches the video itself' }));
  }

  startOf(url: string): number {
    return parseYouTubeLink(url)?.start ?? 0;
  }

  resolve(item: MediaItem): Promise<Upstream> {
    return Promise.reject(new AppError('invalid_argument', `media ${item.id} is played by YouTube's embedded player; there is nothing for this service to fetch`));
  }

  play(item: MediaItem): Promise<PlayInfo> {
    const link = parseYouTubeLink(item.url);
    if (!link?.videoId) return Promise.reject(new AppError('invalid_argument', `media ${item.id} does not name a YouTube video`));
    return Promise.resolve({
      sources: [{ type: 'youtube', url: `https://www.youtube.com/watch?v=${link.videoId}` }],
      subtitles: item.subtitles,
      live: false,
      proxied: false,
      expiresAt: null,
    });
  }
}
