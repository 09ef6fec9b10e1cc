/**
 * The videos of a YouTube playlist, asked of YouTube's own player: svc's server cannot list a
 * playlist without an API key, while the embedded player cues one by its id
 * (`/embed?listType=playlist&list=<id>`) and answers `getPlaylist()`. The add-media form adds
 * each video as an item, so one item is always one video.
 */
import { loadYouTubeApi, youTubeError } from './youtube-api.js';
import type { YouTubeEmbed } from './youtube-player.js';
import { t } from '../../i18n/i18n.js';

/** Longest wait for the player to answer with the list. */
const LIST_TIMEOUT_MS = 15_000;
const POLL_MS = 100;

export async function playlistVideos(embed: YouTubeEmbed, listId: string): Promise<string[]> {
  const YT = await loadYouTubeApi(embed.script);
  const frame = document.createElement('iframe');
  const params = new URLSearchParams({ listType: 'playlist', list: listId, enablejsapi: '1', origin: location.origin });
  frame.src = `${embed.frameOrigin}/embed?${params.toString()}`;
  frame.referrerPolicy = 'strict-origin-when-cross-origin';
  frame.title = t('player.youtube.playlistFrame');
  frame.hidden = true;
  document.body.append(frame);
  try {
    return await new Promise<string[]>((resolve, reject) => {
      const deadline = Date.now() + LIST_TIMEOUT_MS;
      const player = new YT.Player(frame, {
        events: {
          onReady: () => {
            const poll = (): void => {
              const videos = player.getPlaylist();
              if (videos && videos.length > 0) resolve(videos);
              else if (Date.now() > deadline) reject(new Error(t('player.youtube.playlistEmpty')));
              else setTimeout(poll, POLL_MS);
            };
            poll();
          },
          onError: (event) => reject(new Error(youTubeError(event.data))),
        },
      });
    });
  } finally {
    frame.remove();
  }
}

/** The playlist a link names when it names no video (`/playlist?list=...`), else null. */
export function playlistOnly(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (!/(^|\.)youtube(-nocookie)?\.com$/i.test(parsed.hostname) || parsed.searchParams.has('v')) return null;
    return parsed.searchParams.get('list');
  } catch {
    return null;
  }
}
