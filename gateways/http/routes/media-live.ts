/**
 * Livestream playback, outside `/api` (a media element cannot send a bearer token; the URL
 * carries a signed grant for room, user, item and resource `live`, media/media-grant.ts):
 *   /media/live/<token>/stream.flv   HTTP-FLV from the publish: header, metadata, sequence
 *                                    headers and the last GOP at once, then live tags
 *   /media/live/<token>/index.m3u8   the rolling HLS playlist
 *   /media/live/<token>/seg<N>.ts    its segments (seg<N>.png with rtmp.tsDisguisedAsPng)
 * A stream published to another replica is fetched from it (live registry) and streamed
 * through, so a stream that exists never answers 404 here (spec 7.2); one that exists nowhere
 * answers 404 `not_found` "offline". `proxy.liveProxy` off answers 403. An item of the `pull`
 * provider is pulled from its source when its first player asks (gateways/rtmp/live-pulls.ts),
 * on this replica unless another already pulls it; the request waits for the source's first
 * frames (up to 10 s).
 *
 * A link is good for `media_proxy.grant_ttl_seconds` (hours), so, as for the media proxy, its
 * session must still be live (GrantSessions: a sign-out or ban stops it within a second) and the
 * holder still a member who sees the item (MemberItems: a kicked or banned member's link stops
 * working within its re-check interval). An open FLV connection is cut when its session ends
 * or its holder leaves the room (kicked, banned, left) or the room is deleted.
 */
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import Router from '@koa/router';
import { AppError } from '../../../errors/index.js';
import type { RuntimeSettings } from '../../../settings/index.js';
import { PLAYLIST_FILE } from '../../rtmp/hls-transmuxer.js';
import type { LiveDeps } from '../../rtmp/live-deps.js';
import type { LiveStream } from '../../rtmp/live-stream.js';
import type { Caller } from '../../../accounts/index.js';
import type { MediaGrant } from '../../../media/index.js';
import type { GrantSessions } from '../../media/grant-sessions.js';
import type { MemberItems } from '../../media/member-items.js';
import { endsMembership } from '../../rooms/member-lens.js';
import type { RoomFeeds, TopicListener } from '../../rooms/room-feed.js';
import type { SessionConnections } from '../../session-connections.js';
import { LIVE_RESOURCE, PULL_PROVIDER } from '../../../media/index.js';
import type { HttpContext, HttpState } from '../state.js';

/** Marks a request forwarded by another replica: answered from here or 404, never forwarded again. */
const HOP_HEADER = 'x-svc-live-hop';
const SEGMENT = /^seg(\d{1,12})\.(ts|png)$/;
/** A playlist is written about a second after the publish starts; a player asking earlier waits. */
const PLAYLIST_WAIT_MS = 8_000;
const PLAYLIST_POLL_MS = 50;
const FORWARD_TIMEOUT_MS = 10_000;

const MEDIA_HEADERS = { 'Content-Security-Policy': "default-src 'none'", 'X-Content-Type-Options': 'nosniff' };

/** Segment names in a playlist, as clients should ask for them. */
export function disguiseSegments(playlist: string): string {
  return playlist.replace(/^(seg\d+)\.ts$/gm, '$1.png');
}

function offline(): AppError {
  return new AppError('not_found', 'the livestream is offline: nobody is publishing to this item now');
}

/** Who may still play a link, and what ends an open one. */
export interface LiveAccess {
  members: MemberItems;
  sessions: GrantSessions;
  connections: SessionConnections;
  feeds: RoomFeeds;
}

export function mediaLiveRoutes(live: LiveDeps, settings: RuntimeSettings, access: LiveAccess): Router<HttpState> {
  const router = new Router<HttpState>({ prefix: '/media/live' });

  router.get('/:token/:file', async (ctx) => {
    if (!settings.get('proxy.liveProxy')) {
      throw new AppError('forbidden', 'livestream playback through this server is disabled (proxy.liveProxy)');
    }
    const { token, file } = ctx.params as { token: string; file: string };
    const grant = live.grants.verify(token);
    if (grant.resource !== LIVE_RESOURCE) throw new AppError('forbidden', 'this media link is not for a livestream');
    const holder = await access.sessions.holder(grant);
    const item = await access.members.item(grant.roomId, grant.userId, grant.mediaId);
    if (file !== 'stream.flv' && file !== PLAYLIST_FILE && !SEGMENT.test(file)) {
      throw new AppError('not_found', `a livestream has stream.flv, ${PLAYLIST_FILE} and its segments, not "${file.slice(0, 64)}"`);
    }
    const target = { roomId: grant.roomId, mediaId: grant.mediaId };
    let stream = live.ingest?.local(target) ?? live.pulls?.local(target);
    // A pulled item's first player starts its pull here, unless another replica holds it (then undefined: forwarded).
    if (!stream && item.provider === PULL_PROVIDER) {
      if (!live.pulls) throw new AppError('unavailable', 'this server does not pull live streams (live_pull.max_streams is 0)');
      stream = await live.pulls.want(target, item.url);
    }
    if (file === 'stream.flv') cutWhenEnded(ctx, access, holder, grant);
    if (stream) {
      live.pulls?.touch(target);
      ctx.set(MEDIA_HEADERS);
      if (file === 'stream.flv') serveFlv(ctx, stream);
      else if (file === PLAYLIST_FILE) await servePlaylist(ctx, stream, settings.get('rtmp.tsDisguisedAsPng'));
      else await serveSegment(ctx, stream, file);
      return;
    }
    if (ctx.get(HOP_HEADER) !== '') throw offline();
    const entry = await live.registry.find(target);
    if (!entry || entry.replicaId === live.replicaId) throw offline();
    await forward(ctx, `${entry.baseUrl.replace(/\/$/, '')}/media/live/${encodeURIComponent(token)}/${file}`);
  });
  return router;
}

/**
 * An FLV response lasts as long as the stream: it is cut (the connection closed mid-body, so
 * the player sees the stream end) when the holder's session ends or the holder leaves the
 * room, or when another item becomes current and the holder may play only what is playing
 * (docs/2026-11-26-guests-watch.md). After a NATS reconnect the membership is asked again, as
 * the event may have been lost.
 */
function cutWhenEnded(ctx: HttpContext, access: LiveAccess, holder: Caller, grant: MediaGrant): void {
  const cut = (): void => {
    ctx.res.destroy();
  };
  const release = access.connections.hold(holder, cut);
  const topic = access.feeds.topic(grant.roomId);
  const askAgain = (): void => {
    access.members.forget(grant.roomId, grant.userId);
    access.members.item(grant.roomId, grant.userId, grant.mediaId).catch((err: unknown) => {
      // Only the room's refusal ends it; a room that cannot answer now is asked again next time.
      if (err instanceof AppError && (err.code === 'forbidden' || err.code === 'not_found')) cut();
    });
  };
  const listener: TopicListener = {
    event: ({ event }) => {
      if (event.type === 'playback' && event.playback.mediaId !== grant.mediaId) return askAgain();
      if (endsMembership(event, grant.userId) === undefined) return;
      access.members.forget(grant.roomId, grant.userId);
      cut();
    },
    reset: askAgain,
  };
  topic.add(listener);
  ctx.res.once('close', () => {
    release();
    topic.remove(listener);
  });
}

function serveFlv(ctx: HttpContext, stream: LiveStream): void {
  const body = new PassThrough();
  stream.attach(body);
  ctx.status = 200;
  ctx.type = 'video/x-flv';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = body;
}

async function servePlaylist(ctx: HttpContext, stream: LiveStream, disguised: boolean): Promise<void> {
  const path = join(stream.hls.dir, PLAYLIST_FILE);
  const deadline = Date.now() + PLAYLIST_WAIT_MS;
  for (;;) {
    try {
      await access(path);
      break;
    } catch {
      if (Date.now() > deadline) throw new AppError('unavailable', 'the livestream has no HLS playlist yet; try again shortly');
      await new Promise((resolve) => setTimeout(resolve, PLAYLIST_POLL_MS));
    }
  }
  const text = await readFile(path, 'utf8');
  ctx.status = 200;
  ctx.type = 'application/vnd.apple.mpegurl';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = disguised ? disguiseSegments(text) : text;
}

async function serveSegment(ctx: HttpContext, stream: LiveStream, file: string): Promise<void> {
  const [, number, extension] = SEGMENT.exec(file) as RegExpExecArray;
  let bytes: Buffer;
  try {
    bytes = await readFile(join(stream.hls.dir, `seg${number}.ts`));
  } catch {
    throw new AppError('not_found', `segment ${number} has left the live playlist; reload ${PLAYLIST_FILE}`);
  }
  ctx.status = 200;
  // Disguised, the bytes are still MPEG-TS: only the name and the declared type change.
  ctx.type = extension === 'png' ? 'image/png' : 'video/mp2t';
  ctx.set('Cache-Control', 'public, max-age=60');
  ctx.body = bytes;
}

/** Streams the publisher replica's answer through (status, type, caching, body). */
async function forward(ctx: HttpContext, url: string): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), FORWARD_TIMEOUT_MS);
  ctx.req.once('close', () => abort.abort());
  let answer: Response;
  try {
    answer = await fetch(url, { headers: { [HOP_HEADER]: '1' }, signal: abort.signal });
  } catch (err) {
    throw new AppError('bad_gateway', 'the replica holding this livestream did not answer', [], { cause: err });
  } finally {
    // Headers are in: the body streams as long as the stream lasts.
    clearTimeout(timer);
  }
  ctx.status = answer.status;
  for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
    const value = answer.headers.get(name);
    if (value !== null) ctx.set(name, value);
  }
  if (!answer.body) {
    ctx.body = '';
    return;
  }
  const body = Readable.fromWeb(answer.body as WebReadableStream<Uint8Array>);
  body.once('close', () => abort.abort());
  ctx.body = body;
}
