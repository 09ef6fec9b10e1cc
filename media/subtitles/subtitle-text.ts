/**
 * Subtitle bytes to text: UTF-8 (a byte-order mark dropped), or UTF-16 when a byte-order mark
 * says so (Windows tools save SRT that way). Anything else is refused rather than guessed: a
 * wrong guess shows viewers mojibake and nobody learns why.
 */
import type { SubtitleFormatName } from '../../contracts/room/subtitles.js';

export class SubtitleTextError extends Error {}

export function decodeSubtitle(bytes: Uint8Array): string {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2), { stream: false });
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2), { stream: false });
  else {
    try {
      // TextDecoder drops a UTF-8 byte-order mark itself.
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new SubtitleTextError('is not UTF-8 text (or UTF-16 with a byte-order mark)');
    }
  }
  if (text.includes('\u0000')) throw new SubtitleTextError('is not text (it contains NUL characters)');
  return text.replace(/^\uFEFF/, '');
}

/**
 * The format the text itself says, else the declared one, else SRT: WebVTT must start with
 * "WEBVTT" and ASS/SSA with "[Script Info]", so a mislabelled file is still read right.
 */
export function sniffFormat(text: string, declared: SubtitleFormatName | undefined): SubtitleFormatName {
  const head = text.replace(/^\uFEFF/, '').trimStart().slice(0, 64);
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return 'vtt';
  if (/^\[Script Info\]/i.test(head)) return declared === 'ssa' ? 'ssa' : 'ass';
  if (declared === 'vtt' || declared === 'ass' || declared === 'ssa') {
    // Declared one thing and is another: SRT is the only format without a header, so say what it is not.
    if (/^\d+[ \t]*\r?\n\s*\d/.test(head) || /-->/.test(text.slice(0, 512))) return 'srt';
    throw new SubtitleTextError(`does not look like ${declared === 'vtt' ? 'WebVTT (no WEBVTT header)' : 'ASS/SSA (no [Script Info] section)'}`);
  }
  return 'srt';
}
