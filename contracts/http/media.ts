/**
 * Media for clients: the providers this server has (the add-media form's choice, with the
 * operator's proxy switches), and how one member plays one playlist item
 * (`.../playlist/{mediaId}/play`, docs/2026-11-23-media-proxy.md). A leaf module.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { Subtitle } from '../room/model.js';
import { mediaId, roomId } from './room.js';

/** How a client plays a source (media/provider.ts and the players use this type). */
export const SourceType = z.enum(['file', 'hls', 'flv', 'dash', 'youtube']);
export type SourceType = z.infer<typeof SourceType>;

export const PlaySource = z
  .strictObject({
    url: z.string().meta({ description: 'Absolute upstream URL, or a /media/... path on this server (resolve it against the API base URL)' }),
    type: SourceType.meta({ description: 'file: progressive (mp4, webm, mkv); hls: m3u8; flv: HTTP-FLV; dash: an MPEG-DASH manifest (mpd); youtube: a video of YouTube\'s embedded player (url: its watch URL)' }),
    headers: z.record(z.string(), z.string()).optional().meta({ description: 'Headers the client must send itself (unproxied sources only)' }),
  })
  .meta({ id: 'PlaySource' });
export type PlaySource = z.infer<typeof PlaySource>;

const LocalFile = z
  .strictObject({
    fingerprint: z.string().meta({ description: 'SHA-256 (64 lowercase hex digits) of the first MiB, the last MiB and the size as 8 bytes big-endian; files up to 2 MiB: the whole file and the size' }),
    size: z.number().int().positive().meta({ description: 'Bytes' }),
    name: z.string().meta({ description: "The file's name on the disk of whoever added it" }),
  })
  .meta({ id: 'LocalFile' });

export const BurnableSubtitle = z
  .strictObject({
    index: z.number().int().meta({ description: "The image subtitle stream's index in the media (ffprobe's; MediaReach.imageSubtitles)" }),
    codec: z.string().meta({ description: 'hdmv_pgs_subtitle (PGS), dvd_subtitle (VobSub), dvb_subtitle' }),
    language: z.string().nullable(),
    title: z.string().nullable(),
    url: z.string().meta({ description: 'The master playlist (HLS) of the transcode with this stream burned into the picture, a /media/transcode/... path on this server under the same grant as sources: play it instead of the plain one to see these subtitles' }),
  })
  .meta({ id: 'BurnableSubtitle', description: 'A picture subtitle stream a player cannot draw, offered burned into the video by the shared transcode' });
export type BurnableSubtitle = z.infer<typeof BurnableSubtitle>;

export const PlayTranscode = z
  .strictObject({
    how: z.enum(['remux', 'audio', 'video']).meta({ description: "What the shared transcode does: the container only, the audio, or the video too (the item's reach)" }),
    heights: z.array(z.number().int()).meta({ description: 'The quality rungs of the master playlist, highest first (video converted); one entry, the source height, otherwise' }),
    refused: z
      .string()
      .optional()
      .meta({ description: 'Set when no transcoder could take the item (all busy, none running): why, in words; sources then play the media as it is if a browser can' }),
    burnable: z
      .array(BurnableSubtitle)
      .optional()
      .meta({
        description:
          "The item's picture subtitle streams (PGS, VobSub, DVB) a player may switch to, burned in; the whole source switches (a burned variant of copied video is converted at the source height, on 2 s segments instead of 6 s: the room's sync works on media time). Absent when the item has none, or when refused is set",
      }),
    by: z
      .literal('server')
      .optional()
      .meta({
        description:
          "Set when the item's library server (Jellyfin, Emby) converts it instead, in one play session shared by the room (the library's transcoder setting): the source is that server's HLS through this server's proxy, heights its one variant's",
      }),
  })
  .meta({ id: 'PlayTranscode', description: "The item is played through the service's shared transcode (HLS, fMP4, one encode for the whole room)" });
export type PlayTranscode = z.infer<typeof PlayTranscode>;

export const PlayInfo = z
  .strictObject({
    sources: z.array(PlaySource).meta({ description: 'Ways to play the item; take the first you can play' }),
    subtitles: z.array(Subtitle),
    live: z.boolean(),
    proxied: z.boolean().meta({ description: 'The sources are signed URLs of this server' }),
    expiresAt: z.number().int().nullable().meta({ description: 'When the URLs stop working (ms since the epoch): ask again before; null: they do not expire' }),
    transcode: PlayTranscode.optional(),
    local: LocalFile.optional().meta({ description: "Only for a file on each viewer's own disk (provider local): sources is empty; pick your copy and check it against the fingerprint" }),
  })
  .meta({ id: 'PlayInfo' });
export type PlayInfo = z.infer<typeof PlayInfo>;

export const MediaProviders = z
  .strictObject({
    providers: z.array(
      z.strictObject({
        name: z.string().meta({ description: 'The value of a playlist item\'s provider field' }),
        label: z.string(),
        proxy: z.enum(['required', 'optional', 'never']).meta({ description: 'Whether items go through the media proxy: always, by the item\'s proxy switch, or never' }),
        live: z.boolean(),
        embed: z
          .strictObject({
            script: z.string().meta({ description: 'The player API script the web client loads' }),
            frameOrigin: z.string().meta({ description: 'The origin the player frames come from' }),
          })
          .optional()
          .meta({ description: 'Items play in a third party\'s embedded player (YouTube)' }),
      }),
    ),
    movieProxy: z.boolean().meta({ description: 'proxy.movieProxy: proxied media is allowed' }),
    liveProxy: z.boolean().meta({ description: 'proxy.liveProxy: proxied livestreams are allowed' }),
  })
  .meta({ id: 'MediaProviders' });

export const getMediaProviders = defineEndpoint({
  method: 'get',
  path: '/api/media/providers',
  operationId: 'getMediaProviders',
  summary: 'The media providers of this server and whether the media proxy is on',
  tags: ['media'],
  access: 'public',
  responses: { 200: { description: 'Providers', schema: MediaProviders } },
  errors: [],
});

export const getPlayInfo = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/play',
  operationId: 'getPlayInfo',
  summary: 'How the caller plays one playlist item: source URLs (signed when proxied), subtitles (the current item: every member; any other: view_media_resources)',
  tags: ['playlist'],
  access: 'user_or_guest',
  params: z.strictObject({ roomId, mediaId }),
  query: z.strictObject({
    original: z
      .enum(['true', 'false'])
      .optional()
      .meta({ description: "true: the item's own source, never a transcode (for a player that decodes any codec, such as svc watch's mpv); default false" }),
  }),
  responses: { 200: { description: 'Sources', schema: PlayInfo } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded', 'bad_gateway'],
});
