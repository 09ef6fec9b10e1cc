/**
 * Which file container the first bytes of some media are, decided by us before a media tool
 * reads it, and the input arguments that hold the tool to that one demuxer. Left to probe on its
 * own, ffmpeg picks a demuxer by content, and some of them follow what the content names with
 * ffmpeg's own network client, where the address policy does not apply: HLS and DASH (their
 * segments, on any host), concat/ffconcat, SDP/RTP (UDP to any address), and more. An explicit
 * `-f` of a file demuxer, the same name as the only `-format_whitelist` entry (so no nested
 * open can pick another), and a `-protocol_whitelist` of what the job needs leave none of that.
 * QuickTime/MP4 references to other files ("drefs") stay off, as they are by default.
 *
 * What is not one of these containers is not given to a tool at all: an audio file (MP3,
 * FLAC) has no subtitle streams to find, and anything else is not a media file we read.
 */

import type { AudioFile } from './audio-sniff.js';

/** ffmpeg's demuxer names of the containers we read. */
export type FileContainer = 'matroska' | 'mov' | 'avi' | 'mpegts' | 'ogg';

/** How much of the start of a file `sniffContainer` needs: three MPEG-TS packets of 192 bytes and some. */
export const SNIFF_BYTES = 1024;

const TS_PACKET = 188;
const M2TS_PACKET = 192;
/** Top-level QuickTime/ISO BMFF boxes a file may start with (ftyp in every MP4; the others in older QuickTime files). */
const MOV_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

/** Sync bytes every `packet` bytes from `offset`, three times: MPEG-TS (188) or Blu-ray M2TS (192, a 4-byte time code first). */
function transportStream(bytes: Uint8Array, offset: number, packet: number): boolean {
  return [0, 1, 2].every((n) => bytes[offset + n * packet] === 0x47);
}

/** The container of a file that starts with `bytes` (at least `SNIFF_BYTES` of it when the file is that long), or undefined. */
export function sniffContainer(bytes: Uint8Array): FileContainer | undefined {
  if (bytes.length < 12) return undefined;
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'matroska';
  if (MOV_FIRST_BOXES.has(ascii(bytes, 4, 4))) return 'mov';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'AVI ') return 'avi';
  if (ascii(bytes, 0, 4) === 'OggS') return 'ogg';
  if (transportStream(bytes, 0, TS_PACKET) || transportStream(bytes, 4, M2TS_PACKET)) return 'mpegts';
  return undefined;
}

/** A human name of each container, for messages. */
export const CONTAINER_NAMES: Record<FileContainer, string> = {
  matroska: 'Matroska/WebM',
  mov: 'MP4/QuickTime',
  avi: 'AVI',
  mpegts: 'MPEG-TS',
  ogg: 'Ogg',
};

/**
 * The input options and input of a tool reading `url` (this service's own proxy, so `http` and
 * the `tcp` under it are all it may open) as `container` (or, for the media probe, a plain
 * audio file: media/tools/audio-sniff.ts) and nothing else.
 */
export function confinedInput(container: FileContainer | AudioFile, url: string): string[] {
  return [
    '-protocol_whitelist', 'http,tcp',
    '-format_whitelist', container,
    '-f', container,
    ...(container === 'mov' ? ['-enable_drefs', '0', '-use_absolute_path', '0'] : []),
    '-i', url,
  ];
}
