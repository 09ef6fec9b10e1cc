/**
 * Which plain audio file the first bytes of some media are (MP3, FLAC, WAV, ADTS AAC): files
 * with no container of media/tools/container-sniff.ts, which the media probe still reads
 * (media/transcode/probe.ts), since browsers play them as they are and the probe must say so.
 * Held to the one demuxer named here, a tool reads such a file like any other (`confinedInput`):
 * none of these demuxers opens anything the file names.
 */

/** ffmpeg's demuxer names of the audio files the probe reads. */
export type AudioFile = 'mp3' | 'flac' | 'wav' | 'aac';

const ascii = (bytes: Uint8Array, start: number, length: number) => String.fromCharCode(...bytes.subarray(start, start + length));

/** An MPEG audio frame header (layer I, II or III) at `at`: sync, a layer, a bit rate and a sample rate that exist. */
function mpegAudioFrame(bytes: Uint8Array, at: number): boolean {
  const [b1, b2] = [bytes[at + 1] ?? 0, bytes[at + 2] ?? 0];
  return bytes[at] === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x06) !== 0 && (b1 & 0x18) !== 0x08 && b2 >> 4 !== 0x0f && ((b2 >> 2) & 0x03) !== 0x03;
}

/** An ADTS header at `at` (sync, layer 0, a sample rate that exists), and the frame's length. */
function adtsFrame(bytes: Uint8Array, at: number): number | undefined {
  if (bytes[at] !== 0xff || ((bytes[at + 1] ?? 0) & 0xf6) !== 0xf0 || ((bytes[at + 2] ?? 0) >> 2) % 16 > 12) return undefined;
  return (((bytes[at + 3] ?? 0) & 0x03) << 11) | ((bytes[at + 4] ?? 0) << 3) | ((bytes[at + 5] ?? 0) >> 5);
}

/**
 * The audio file that starts with `bytes`, or undefined. An ID3v2 tag first is taken as MP3
 * (where such tags belong; its cover art often runs past the bytes seen); ADTS needs its
 * second frame header where the first says, when the bytes reach that far.
 */
export function sniffAudioFile(bytes: Uint8Array): AudioFile | undefined {
  if (bytes.length < 12) return undefined;
  if (ascii(bytes, 0, 4) === 'fLaC') return 'flac';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WAVE') return 'wav';
  if (ascii(bytes, 0, 3) === 'ID3') return 'mp3';
  const adts = adtsFrame(bytes, 0);
  if (adts !== undefined) return adts > 7 && (adts + 6 > bytes.length || adtsFrame(bytes, adts) !== undefined) ? 'aac' : undefined;
  return mpegAudioFrame(bytes, 0) ? 'mp3' : undefined;
}
