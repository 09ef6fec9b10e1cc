/**
 * Subtitle tracks of a playlist item (docs/2026-11-26-subtitles.md): the stored form, the form a
 * client gives, their formats and the caps. A track's source is exactly one of a URL, a file
 * uploaded to the room, or a subtitle stream of the item's own media. A leaf module.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { ROOM_LIMITS } from './limits.js';

export const SUBTITLE_FORMATS = ['vtt', 'srt', 'ass', 'ssa'] as const;
export type SubtitleFormatName = (typeof SUBTITLE_FORMATS)[number];

export const SUBTITLE_LIMITS = {
  /** An uploaded file, and a URL track as fetched: a feature film's SRT is 50-150 KiB, a styled ASS a few hundred. */
  fileMaxBytes: 2 * 1024 * 1024,
  /** Uploaded files one room keeps; an upload past it is refused until files go with their room. */
  filesPerRoom: 200,
  /** The longest ffmpeg may take to extract one embedded track. */
  extractTimeoutMs: 60_000,
  /** Embedded streams listed per item. */
  embeddedMaxCount: 32,
  /** Characters in one line of a file: a cue's line has under a hundred, an ASS vector drawing a few thousand. */
  lineMaxChars: 65_536,
  /** Cues of an SRT or WebVTT file, events of an ASS/SSA one: a film has 1,000-2,000, a heavily typeset episode tens of thousands. */
  cuesMaxCount: 50_000,
  /** The longest checking or converting one file may take in a subtitle worker (a 2 MiB file takes well under a second). */
  convertTimeoutMs: 10_000,
} as const;

export const SubtitleFormat = z.enum(SUBTITLE_FORMATS).meta({ id: 'SubtitleFormat', description: 'vtt (WebVTT), srt (SubRip), ass or ssa (Advanced SubStation Alpha)' });

export const Subtitle = z
  .strictObject({
    name: z.string(),
    url: z.string().optional().meta({ description: 'Source: an http or https URL the server fetches (through its media proxy rules)' }),
    fileId: z.string().optional().meta({ description: 'Source: a file uploaded to this room (POST /api/rooms/{roomId}/subtitle-files)' }),
    stream: z.number().int().optional().meta({ description: 'Source: a subtitle stream of the item\'s own media (its ffprobe stream index; proxied files only)' }),
    language: z.string().optional(),
    format: SubtitleFormat.optional().meta({ description: 'Absent: guessed from the URL or file name (vtt when nothing says)' }),
    default: z.boolean().optional().meta({ description: 'The room\'s default track (at most one per item): shown to viewers who chose nothing' }),
  })
  .meta({ id: 'Subtitle', description: 'One subtitle track; exactly one of url, fileId and stream' });
export type Subtitle = z.infer<typeof Subtitle>;

/** A track as a client gives it; String bounds only cap the work, validate.ts checks the content. */
export const SubtitleInput = z.strictObject({
  name: oneLineText().min(1).max(ROOM_LIMITS.nameMaxChars * 2),
  url: oneLineText().min(1).max(ROOM_LIMITS.urlMaxChars).optional(),
  fileId: oneLineText().min(1).max(64).optional(),
  stream: z.number().int().min(0).max(1023).optional(),
  language: oneLineText().max(35).optional(),
  format: SubtitleFormat.optional(),
  default: z.boolean().optional(),
});
export type SubtitleInput = z.infer<typeof SubtitleInput>;
export const subtitleInputs = () => z.array(SubtitleInput).max(ROOM_LIMITS.subtitlesMaxCount);

/** The format a name (URL path or file name) says, if any: `movie.en.srt` is srt. */
export function formatFromName(name: string): SubtitleFormatName | undefined {
  let path = name;
  try {
    path = new URL(name).pathname;
  } catch {
    // a file name, not a URL
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (extension === 'webvtt') return 'vtt';
  return (SUBTITLE_FORMATS as readonly string[]).includes(extension ?? '') ? (extension as SubtitleFormatName) : undefined;
}

/** What a browser is handed: WebVTT (vtt and converted srt) for a native <track>, ASS for JASSUB (ssa included: libass reads both). */
export const ServedFormat = z.enum(['vtt', 'ass']);
export type ServedFormat = z.infer<typeof ServedFormat>;
export function servedFormat(format: SubtitleFormatName): ServedFormat {
  return format === 'ass' || format === 'ssa' ? 'ass' : 'vtt';
}
