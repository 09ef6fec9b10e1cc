/**
 * Reads a live HLS playlist for a pulled stream (provider `pull` with an http or https URL) and
 * writes its MPEG-TS segments, in order, to `out` (ffmpeg's stdin). Every request goes through
 * the media proxy's upstream client, so the playlist, each variant and each segment are checked
 * against the address policy hop by hop, redirects included, as a proxied HLS item's are; ffmpeg's
 * own HLS demuxer is never used, since it fetches whatever hosts a playlist names.
 *
 * It follows the live edge: the highest-bandwidth variant of a master playlist, starting at the
 * newest segment, reloading every half target duration. Encrypted playlists (EXT-X-KEY) and fMP4
 * segments (EXT-X-MAP) are refused with a sentence: the pull reads MPEG-TS segments as they are.
 */
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import { AppError } from '../../errors/index.js';
import { readLimited } from '../proxy/read-body.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';

const PLAYLIST_LIMIT_BYTES = 1024 * 1024;
/** A segment larger than this is not a live segment of a few seconds. */
const SEGMENT_LIMIT_BYTES = 64 * 1024 * 1024;
/** A live playlist that brings nothing new for this long is taken as ended. */
const STALL_MS = 30_000;

interface MediaPlaylist {
  targetSeconds: number;
  firstSequence: number;
  segments: string[];
  ended: boolean;
}

async function fetchText(client: UpstreamClient, url: string, signal: AbortSignal): Promise<{ text: string; url: string }> {
  const reply = await client.request({ url, signal });
  if (reply.status !== 200) {
    reply.body.destroy();
    throw new AppError('bad_gateway', `the HLS source answered ${reply.status} for its playlist`);
  }
  return { text: (await readLimited(reply, PLAYLIST_LIMIT_BYTES, 'HLS playlist')).toString('utf8'), url: reply.url };
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');
}

/** The variant with the highest BANDWIDTH of a master playlist, or undefined for a media playlist. */
function bestVariant(text: string, base: string): string | undefined {
  const all = lines(text);
  let best: { url: string; bandwidth: number } | undefined;
  for (let index = 0; index < all.length; index += 1) {
    const line = all[index]!;
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const bandwidth = Number(/BANDWIDTH=(\d+)/.exec(line)?.[1] ?? 0);
    const uri = all[index + 1];
    if (uri === undefined || uri.startsWith('#')) continue;
    if (!best || bandwidth > best.bandwidth) best = { url: new URL(uri, base).href, bandwidth };
  }
  return best?.url;
}

function mediaPlaylist(text: string, base: string): MediaPlaylist {
  const all = lines(text);
  if (all[0] !== '#EXTM3U') throw new AppError('bad_gateway', 'the HLS source is not an HLS playlist (#EXTM3U missing)');
  let targetSeconds = 2;
  let firstSequence = 0;
  let ended = false;
  const segments: string[] = [];
  for (const line of all) {
    if (line.startsWith('#EXT-X-TARGETDURATION:')) targetSeconds = Math.max(0.5, Number(line.slice(22)) || 2);
    else if (line.startsWith('#EXT-X-MEDIA-SEQUENCE:')) firstSequence = Number(line.slice(22)) || 0;
    else if (line.startsWith('#EXT-X-ENDLIST')) ended = true;
    else if (line.startsWith('#EXT-X-KEY:') && !/METHOD=NONE/.test(line)) throw new AppError('bad_gateway', 'the HLS source is encrypted (EXT-X-KEY), which a pull cannot read');
    else if (line.startsWith('#EXT-X-MAP:')) throw new AppError('bad_gateway', 'the HLS source has fMP4 segments (EXT-X-MAP); a pull reads MPEG-TS segments only');
    else if (!line.startsWith('#')) segments.push(new URL(line, base).href);
  }
  return { targetSeconds, firstSequence, segments, ended };
}

async function copySegment(client: UpstreamClient, url: string, out: Writable, signal: AbortSignal): Promise<void> {
  const reply = await client.request({ url, signal });
  if (reply.status !== 200) {
    reply.body.destroy();
    throw new AppError('bad_gateway', `the HLS source answered ${reply.status} for a segment`);
  }
  let size = 0;
  for await (const chunk of reply.body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > SEGMENT_LIMIT_BYTES) {
      reply.body.destroy();
      throw new AppError('bad_gateway', `an HLS segment of the source is more than ${SEGMENT_LIMIT_BYTES} bytes`);
    }
    if (out.destroyed) return;
    if (!out.write(buffer)) await once(out, 'drain', { signal });
  }
}

/** Copies the live edge of the playlist at `url` into `out` until it ends, stalls or `signal` aborts. */
export async function feedHls(client: UpstreamClient, url: string, out: Writable, signal: AbortSignal): Promise<void> {
  const first = await fetchText(client, url, signal);
  const variant = bestVariant(first.text, first.url);
  let playlistUrl = variant ?? first.url;
  let text = variant ? undefined : first.text;
  let next: number | undefined;
  let progressAt = Date.now();
  while (!signal.aborted && !out.destroyed) {
    if (text === undefined) {
      const fetched = await fetchText(client, playlistUrl, signal);
      playlistUrl = fetched.url;
      text = fetched.text;
    }
    const playlist = mediaPlaylist(text, playlistUrl);
    text = undefined;
    const last = playlist.firstSequence + playlist.segments.length - 1;
    // Join at the newest segment; after a gap (the source moved on faster than us), at the oldest still listed.
    next ??= Math.max(playlist.firstSequence, last);
    if (next < playlist.firstSequence) next = playlist.firstSequence;
    for (; next <= last && !signal.aborted; next += 1) {
      await copySegment(client, playlist.segments[next - playlist.firstSequence]!, out, signal);
      progressAt = Date.now();
    }
    if (playlist.ended) return;
    if (Date.now() - progressAt > STALL_MS) throw new AppError('bad_gateway', `the HLS source added no segment for ${STALL_MS / 1000} s`);
    await delay((playlist.targetSeconds * 1000) / 2, undefined, { signal });
  }
}
