/**
 * What a subtitle worker does with one file (subtitle-worker.ts), as plain functions: bytes to
 * text, the format read from the text, the caps checked, and the text as served (SRT converted
 * to WebVTT, WebVTT and ASS checked). A failure is a `SubtitleTextError` whose message the
 * caller puts after its own subject ("content: ...", "the subtitle file at the URL ...").
 */
import type { ServedFormat, SubtitleFormatName } from '../../contracts/room/subtitles.js';
import { checkedAss, checkedVtt } from './subtitle-checks.js';
import { srtToVtt } from './srt-to-vtt.js';
import { decodeSubtitle, sniffFormat } from './subtitle-text.js';

export interface TrackText {
  format: ServedFormat;
  text: string;
}

/** An upload, or a file as stored (`text` and its stored format) or fetched (`bytes`), to be served. */
export type SubtitleJob =
  | { kind: 'upload'; bytes: Uint8Array; declared?: SubtitleFormatName }
  | { kind: 'serve'; bytes: Uint8Array; declared?: SubtitleFormatName }
  | { kind: 'serve'; text: string; declared?: SubtitleFormatName };

/** An upload as stored: its text and the format read from it. */
export interface StoredSubtitle {
  format: SubtitleFormatName;
  text: string;
}

export type SubtitleJobResult = StoredSubtitle | TrackText;

export function runSubtitleJob(job: SubtitleJob): SubtitleJobResult {
  const text = 'text' in job ? job.text : decodeSubtitle(job.bytes);
  if (job.kind === 'upload') {
    const format = sniffFormat(text, job.declared);
    // Stored as given, but only once it would serve: the caps and the conversion are checked now.
    asServed(text, format);
    return { format, text };
  }
  return asServed(text, job.declared);
}

/** Text of a known or sniffed format, as served: srt becomes WebVTT, every format within the caps. */
export function asServed(text: string, declared: SubtitleFormatName | undefined): TrackText {
  const format = sniffFormat(text, declared);
  if (format === 'srt') return { format: 'vtt', text: srtToVtt(text) };
  if (format === 'vtt') return { format: 'vtt', text: checkedVtt(text) };
  return { format: 'ass', text: checkedAss(text) };
}
