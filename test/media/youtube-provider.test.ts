/**
 * The `youtube` provider: which links it takes (videos in every form YouTube shares them,
 * with their start time), which it refuses naming the field, and what its play answer is.
 */
import test from 'ava';
import { parseYouTubeLink, YouTubeProvider } from '../../media/providers/youtube.js';
import type { MediaItem } from '../../contracts/room/model.js';

const provider = new YouTubeProvider({ script: 'https://www.youtube.com/iframe_api', frameOrigin: 'https://www.youtube-nocookie.com' });
const ID = 'dQw4w9WgXcQ';

test('video links in every shared form, with their start time', (t) => {
  const cases: Array<[string, number]> = [
    [`https://www.youtube.com/watch?v=${ID}`, 0],
    [`https://youtube.com/watch?v=${ID}&t=90`, 90],
    [`https://m.youtube.com/watch?v=${ID}&t=1m30s`, 90],
    [`https://youtu.be/${ID}?t=3723`, 3723],
    [`https://youtu.be/${ID}?t=1h2m3s`, 3723],
    [`https://www.youtube.com/embed/${ID}?start=42`, 42],
    [`https://www.youtube.com/shorts/${ID}`, 0],
    [`https://www.youtube-nocookie.com/embed/${ID}`, 0],
    [`https://www.youtube.com/watch?v=${ID}&list=PLabcdefghij`, 0],
    [`https://www.youtube.com/watch?v=${ID}#t=15`, 15],
  ];
  for (const [url, start] of cases) {
    t.is(parseYouTubeLink(url)?.videoId, ID, url);
    t.is(provider.startOf(url), start, url);
    t.deepEqual(provider.check({ url, headers: {} }), [], url);
  }
  t.is(parseYouTubeLink(`https://www.youtube.com/watch?v=${ID}&list=PLabcdefghij`)?.listId, 'PLabcdefghij');
});

test('refused, naming the field: other sites, malformed ids, a bare playlist, headers', (t) => {
  for (const url of ['https://vimeo.com/123', 'https://www.youtube.com/watch?v=short', 'https://www.youtube.com/channel/UC123', 'not a url', `ftp://youtu.be/${ID}`]) {
    const issues = provider.check({ url, headers: {} });
    t.deepEqual(issues.map((issue) => issue.key), ['url'], url);
  }
  const playlist = provider.check({ url: 'https://www.youtube.com/playlist?list=PLabcdefghij', headers: {} });
  t.regex(playlist[0]?.message ?? '', /playlist/);
  t.deepEqual(provider.check({ url: `https://youtu.be/${ID}`, headers: { Cookie: 'x' } }).map((issue) => issue.key), ['headers.Cookie']);
});

test('the play answer is the canonical watch URL, unproxied and unexpiring; there is nothing to resolve', async (t) => {
  const item = { id: 'm1', url: `https://youtu.be/${ID}?t=30`, subtitles: [] } as unknown as MediaItem;
  t.deepEqual(await provider.play(item), { sources: [{ type: 'youtube', url: `https://www.youtube.com/watch?v=${ID}` }], subtitles: [], live: false, proxied: false, expiresAt: null });
  await t.throwsAsync(provider.resolve(item), { message: /embedded player/ });
});
