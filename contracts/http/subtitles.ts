/**
 * Subtitles (docs/2026-11-26-subtitles.md): upload a file to a room for a track to name, list a
 * playlist item's tracks (its own and those found inside its media) and read one as the
 * browser shows it (WebVTT, or ASS for JASSUB). A leaf module.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { SUBTITLE_LIMITS, SubtitleFormat } from '../room/subtitles.js';
import { defineEndpoint } from './endpoint.js';
import { mediaId, roomId } from './room.js';

const TAGS = ['subtitles'];
const ROOM_ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;

/** Base64 of the largest file: every 3 bytes are 4 characters. */
const CONTENT_MAX_CHARS = Math.ceil(SUBTITLE_LIMITS.fileMaxBytes / 3) * 4;
/** The JSON body around it: the content plus a name and a format. */
export const SUBTITLE_UPLOAD_BODY_LIMIT = `${Math.ceil((CONTENT_MAX_CHARS + 4096) / 1024)}kb`;

export const SubtitleFileInfo = z
  .strictObject({
    id: z.string().meta({ description: 'What a track names as its fileId' }),
    name: z.string(),
    format: SubtitleFormat.meta({ description: 'As read from the text (a WEBVTT or [Script Info] header), else as declared, else srt' }),
    size: z.number().int().meta({ description: 'Bytes of the stored UTF-8 text' }),
  })
  .meta({ id: 'SubtitleFile' });

export const uploadSubtitleFile = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/subtitle-files',
  operationId: 'uploadSubtitleFile',
  summary: 'Upload an SRT, WebVTT, ASS or SSA file for a subtitle track to name (create_media_resource or edit_media_resource)',
  description:
    `The file's bytes in base64: UTF-8, or UTF-16 with a byte-order mark (stored as UTF-8). At most ${SUBTITLE_LIMITS.fileMaxBytes} bytes, ` +
    `lines of at most ${SUBTITLE_LIMITS.lineMaxChars} characters and ${SUBTITLE_LIMITS.cuesMaxCount} cues (events in ASS/SSA); a file past one is refused naming it. ` +
    `${SUBTITLE_LIMITS.filesPerRoom} files per room; deleted with the room.`,
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId }),
  bodyLimit: SUBTITLE_UPLOAD_BODY_LIMIT,
  body: z.strictObject({
    name: oneLineText().min(1).max(255).meta({ description: 'The file name (its extension names the format when format is absent)' }),
    format: SubtitleFormat.optional(),
    content: z.base64().min(1).max(CONTENT_MAX_CHARS).meta({ description: `The file, base64; at most ${SUBTITLE_LIMITS.fileMaxBytes} bytes once decoded` }),
  }),
  responses: { 201: { description: 'Stored', schema: z.strictObject({ file: SubtitleFileInfo }) } },
  errors: [...ROOM_ERRORS, 'limit_exceeded', 'payload_too_large', 'resource_exhausted'],
});

export const SubtitleTrack = z
  .strictObject({
    id: z.string().meta({ description: '0, 1, ...: the item\'s own tracks in order; e<n>: stream n found inside the media' }),
    name: z.string(),
    language: z.string().optional(),
    format: z.enum(['vtt', 'ass']).meta({ description: 'How it is served: vtt (srt converted; a native text track) or ass (ass and ssa; drawn with their styles)' }),
    source: z.enum(['url', 'file', 'embedded', 'provider']).meta({ description: 'url, an uploaded file, a stream inside the media, or one its provider serves (a Jellyfin or Emby library)' }),
    default: z.boolean().meta({ description: 'The room\'s default track' }),
  })
  .meta({ id: 'SubtitleTrack' });

const trackParams = z.strictObject({ roomId, mediaId });

export const getSubtitleTracks = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/subtitles',
  operationId: 'getSubtitleTracks',
  summary: 'The subtitle tracks of an item: its own, then the text streams inside its media when it is a proxied file (who may play the item)',
  tags: TAGS,
  access: 'user_or_guest',
  params: trackParams,
  responses: { 200: { description: 'Tracks', schema: z.strictObject({ tracks: z.array(SubtitleTrack) }).meta({ id: 'SubtitleTracks' }) } },
  errors: [...ROOM_ERRORS, 'bad_gateway', 'resource_exhausted'],
});

export const getSubtitleTrack = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/subtitles/{trackId}',
  operationId: 'getSubtitleTrack',
  summary: 'One subtitle track\'s text as a browser shows it: WebVTT, or ASS (who may play the item)',
  tags: TAGS,
  access: 'user_or_guest',
  params: trackParams.extend({ trackId: z.string().regex(/^(?:\d{1,2}|[ep]\d{1,4})$/, { error: 'must be a track id from the track list (0, 1, ..., p<n> or e<n>)' }) }),
  responses: {
    200: {
      description: 'The text',
      schema: z.strictObject({ format: z.enum(['vtt', 'ass']), text: z.string() }).meta({ id: 'SubtitleText' }),
    },
  },
  errors: [...ROOM_ERRORS, 'bad_gateway', 'conflict', 'resource_exhausted'],
});
