/**
 * What mpv opens for the room's current item, or why it cannot: the play info the web client
 * asks for (`GET .../playlist/{mediaId}/play`), with `original=true`: mpv decodes nearly
 * everything, so it gets the item's own source (the proxy's signed URL when the room proxies the
 * item) even where browsers get the shared transcode, in full quality and on the same media
 * timeline. Only http(s) URLs of the play answer are opened (resolved against the
 * server): never another scheme a room member could have typed in. YouTube items need yt-dlp,
 * which mpv does not ship with; a "local file" item is the viewer's own copy (`--file`),
 * checked against the item's fingerprint as the web client checks it.
 */
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PlayInfo } from '../../contracts/http/media.js';
import type { NowPlaying } from '../../contracts/room/model.js';
import type { LoadRequest } from './mpv-player.js';
import type { RoomApi } from './room-api.js';

export type ItemPlan = { kind: 'play'; request: LoadRequest; live: boolean; expiresAt: number | null } | { kind: 'cannot'; why: string };

const MIB = 1024 * 1024;

export async function planItem(api: RoomApi, roomId: string, item: NowPlaying, localFile: string | undefined): Promise<ItemPlan> {
  if (item.provider === 'youtube') return youtube(item);
  // mpv decodes what browsers cannot: the source as it is, never the shared transcode (a rung of it).
  const info = await api.get<PlayInfo>(`/api/rooms/${encodeURIComponent(roomId)}/playlist/${encodeURIComponent(item.id)}/play?original=true`);
  if (info.local) {
    if (!localFile) return { kind: 'cannot', why: `"${item.title}" is a file on each viewer's own disk (${info.local.name}): start svc watch with --file <your copy> to play it` };
    const mismatch = await localMismatch(localFile, info.local);
    if (mismatch) return { kind: 'cannot', why: mismatch };
    return { kind: 'play', request: { mediaId: item.id, target: resolve(localFile), title: item.title }, live: false, expiresAt: null };
  }
  const source = info.sources[0];
  if (!source) return { kind: 'cannot', why: `the server offers no way to play "${item.title}"` };
  if (source.type === 'youtube') return youtube(item);
  const url = new URL(source.url, api.origin);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'cannot', why: `"${item.title}" has a ${url.protocol} address, which svc watch does not open` };
  return {
    kind: 'play',
    request: { mediaId: item.id, target: url.href, title: item.title, ...(source.headers ? { headers: source.headers } : {}) },
    live: info.live,
    expiresAt: info.expiresAt,
  };
}

function youtube(item: NowPlaying): ItemPlan {
  return { kind: 'cannot', why: `"${item.title}" is a YouTube video, which mpv cannot play without yt-dlp: waiting for the next item` };
}

/** Null when `path` is the item's file (size, then the fingerprint of web/src/player/local-file.ts), else what differs. */
async function localMismatch(path: string, wanted: { fingerprint: string; size: number; name: string }): Promise<string | null> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch (err) {
    return `cannot read --file ${path}: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (size !== wanted.size) return `--file ${path} has ${size} bytes, but the room's "${wanted.name}" has ${wanted.size}: it is another file`;
  const hash = createHash('sha256');
  const file = await open(path, 'r');
  try {
    const read = async (position: number, length: number): Promise<void> => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, position);
      hash.update(buffer.subarray(0, bytesRead));
    };
    if (size <= 2 * MIB) await read(0, size);
    else {
      await read(0, MIB);
      await read(size - MIB, MIB);
    }
  } finally {
    await file.close();
  }
  const length = Buffer.alloc(8);
  length.writeBigUInt64BE(BigInt(size));
  hash.update(length);
  if (hash.digest('hex') !== wanted.fingerprint) return `--file ${path} is not the room's "${wanted.name}" (same size, different content)`;
  return null;
}
