/**
 * How an item reaches browsers (docs/2026-11-29-how-items-reach-browsers.md): found by probing
 * the item's media when it is added (media/transcode/probe.ts) and stored with the item, so the
 * playlist and the player can say it before anyone presses Play, and the transcoder knows what
 * to copy and what to convert. A leaf module.
 */
import { z } from 'zod';

/**
 * direct: the browser plays the file as it is; remux: only the container changes (video and
 * audio copied into HLS); audio: the audio is converted, the video copied; video: the video is
 * converted (to the heights of `heights`), the audio converted or copied as it needs.
 */
export const REACH_HOWS = ['direct', 'remux', 'audio', 'video'] as const;
export const ReachHow = z.enum(REACH_HOWS).meta({ description: 'direct (plays as is), remux (container changed), audio (audio converted), video (video converted)' });
export type ReachHow = z.infer<typeof ReachHow>;

/** What the transcoder does with one stream kind. */
export const StreamTreatment = z.enum(['copy', 'convert']);

/** One thing browsers cannot take: the container, the video codec or the audio codec, by name. */
export const Blocker = z.strictObject({
  kind: z.enum(['container', 'video', 'audio']),
  name: z.string().meta({ description: 'AVI, HEVC 10-bit, DTS, ...' }),
});

export const ImageSubtitle = z.strictObject({
  index: z.number().int().meta({ description: "The stream's index in the media (ffprobe's)" }),
  codec: z.string().meta({ description: 'hdmv_pgs_subtitle (PGS), dvd_subtitle (VobSub), dvb_subtitle' }),
  language: z.string().nullable(),
  title: z.string().nullable(),
});

/**
 * The source facts the transcode needs beyond the treatment (media/transcode/encode-plan.ts):
 * every gateway writes the master playlist's variants from them (resolution, codecs, bandwidth)
 * and a transcoder plans its encoder, without probing the media again.
 */
export const SourceFacts = z.strictObject({
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  frameRate: z.number().nullable(),
  profile: z.string().nullable().meta({ description: "ffprobe's profile of the video stream (High, Main 10, ...)" }),
  level: z.number().int().nullable().meta({ description: "ffprobe's level of the video stream (31 for 3.1)" }),
  hdr: z.enum(['pq', 'hlg']).nullable().meta({ description: 'The HDR transfer of the video: pq (HDR10, Dolby Vision base layer) or hlg; null for SDR' }),
  videoBitrate: z.number().int().nullable().meta({ description: 'Bits per second of the video stream, when known' }),
  audioSampleRate: z.number().int().nullable(),
  audioProfile: z.string().nullable().meta({ description: "ffprobe's profile of the audio stream (LC, HE-AAC, ...)" }),
});

export const MediaReach = z
  .strictObject({
    how: ReachHow,
    container: z.string().meta({ description: "The media's container as ffprobe names it (matroska, mov, avi, mpegts, ogg, mp3, flac, wav, aac), or webm for a Matroska file whose DocType says WebM" }),
    video: z.string().nullable().meta({ description: 'The video stream in words: "HEVC Main 10, 1920×1080, HDR10"; null without video' }),
    audio: z.string().nullable().meta({ description: 'The audio stream in words: "E-AC3 5.1"; null without audio' }),
    blockers: z.array(Blocker).meta({ description: 'What browsers cannot take ({kind: video, name: HEVC 10-bit}); empty when direct' }),
    height: z.number().int().nullable().meta({ description: "The video's height in pixels" }),
    heights: z.array(z.number().int()).meta({ description: 'The converted heights offered (highest first) when how is video; empty otherwise' }),
    durationSeconds: z.number().nullable(),
    videoStream: z.number().int().nullable().meta({ description: 'The video stream played (ffprobe index)' }),
    audioStream: z.number().int().nullable().meta({ description: 'The audio stream played (ffprobe index)' }),
    videoTreatment: StreamTreatment.nullable(),
    audioTreatment: StreamTreatment.nullable(),
    imageSubtitles: z.array(ImageSubtitle).meta({ description: 'Image subtitle streams, which can be burned into converted video on request' }),
    facts: SourceFacts,
  })
  .meta({ id: 'MediaReach', description: "How the item's media reaches browsers, found when it was added; null until known" });

export type MediaReach = z.infer<typeof MediaReach>;
export type ImageSubtitle = z.infer<typeof ImageSubtitle>;
export type SourceFacts = z.infer<typeof SourceFacts>;
export type Blocker = z.infer<typeof Blocker>;
