/**
 * What gateways, actor hosts and transcoders say to each other over NATS
 * (docs/2026-11-29-how-items-reach-browsers.md, "The transcoder pool"):
 *
 * - `<prefix>.transcode.probe`, queue group `<prefix>.transcoders`: how an item reaches
 *   browsers (any transcoder answers);
 * - `<prefix>.transcode.<transcoder>.read`: one piece of one file of one item's transcode
 *   (a rung's init segment or segment n), or `admit` (would you take this item now); addressed
 *   to one transcoder, the one that rendezvous hashing on the item picks (transcode-client.ts),
 *   so every gateway's readers of one item meet on one encoder.
 *
 * A request is self-contained (the room, the item, the rung, the image subtitle stream burned
 * in, if any: media/transcode/burn.ts): a transcoder that never saw the
 * item, after another one died, starts its encoder where the first read lands. Bytes travel in
 * pieces of at most READ_PIECE_BYTES (NATS's default max payload is 1 MiB; a segment of a remux
 * can be tens of MiB), the piece in the body and the file's size in a header.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import type { ErrorCode } from '../../errors/index.js';

/** Largest piece of a file in one reply. */
export const READ_PIECE_BYTES = 512 * 1024;

/** Which file of a rung: its init segment, segment n, or `admit`: may it start now (no bytes). */
export type TranscodeFile = 'init' | 'admit' | number;

export interface ReadRequest {
  roomId: string;
  item: MediaItem;
  /** The rung's height; 0 for the one rung of a remux or an audio conversion (video copied). */
  rung: number;
  /**
   * ffprobe's index of an image subtitle stream (one of the item's `reach.imageSubtitles`) to
   * burn in: a rung of the burned variant, whose video is always converted. Absent: the plain
   * transcode (and from builds that know no burning).
   */
  burn?: number;
  file: TranscodeFile;
  offset: number;
  /**
   * `admit` only: the item is the room's current one, so the room has moved on from whatever
   * else it had converted and those encoders may go at once (a room plays one item at a time).
   */
  current?: boolean;
}

export interface ProbeRequest {
  roomId: string;
  item: MediaItem;
}

/** An error as it travels (reply header `error`). */
export interface WireError {
  code: ErrorCode;
  message: string;
  retryAfterSeconds?: number;
}

/** Reply headers of a read: the file's size, or an error. */
export const SIZE_HEADER = 'size';
export const ERROR_HEADER = 'error';

export function probeSubject(prefix: string): string {
  return `${prefix}.transcode.probe`;
}

export function readSubject(prefix: string, transcoderId: string): string {
  return `${prefix}.transcode.${transcoderId}.read`;
}

export function transcodersQueue(prefix: string): string {
  return `${prefix}.transcoders`;
}

export function transcodersBucket(prefix: string): string {
  return `${prefix.replace(/[^A-Za-z0-9_-]/g, '_')}_transcoders`;
}

/** A transcoder's id as a subject token and KV key: the replica id with anything else replaced. */
export function transcoderToken(replicaId: string): string {
  return replicaId.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** What a live transcoder says of itself in the bucket (rewritten every heartbeat). */
export interface TranscoderEntry {
  id: string;
  /** Encoders running, and the most it runs at once (`transcoder.max_encodes`). */
  running: number;
  limit: number;
  /** The H.264 encoder it uses: libx264, h264_vaapi, h264_nvenc, h264_qsv. */
  encoder: string;
}
