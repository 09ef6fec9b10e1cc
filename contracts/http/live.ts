/**
 * Stream keys of live playlist items (`/api/rooms/{roomId}/playlist/{mediaId}/stream-key`):
 * read (created on first read) and rotate, for members with `publish_livestream`
 * (docs/2026-11-23-livestreams.md). A leaf module.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { mediaId, roomId } from './room.js';

const TAGS = ['livestreams'];
const ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const itemParams = z.strictObject({ roomId, mediaId });

export const StreamKeyView = z
  .strictObject({
    mediaId: z.string(),
    url: z.string().meta({ description: 'The whole publish URL: rtmp://host[:port]/live/<streamKey>' }),
    server: z.string().meta({ description: 'OBS "Server": the publish URL without the key' }),
    streamKey: z.string().meta({ description: 'OBS "Stream Key"; a secret: whoever holds it can publish to this item' }),
    online: z.boolean().meta({ description: 'A publish to this item is running now' }),
  })
  .meta({ id: 'StreamKey' });

export const getStreamKey = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/stream-key',
  operationId: 'getStreamKey',
  summary: 'The publish URL and the caller\'s own stream key of a live item, created on first read (publish_livestream); it publishes only while the caller may',
  tags: TAGS,
  access: 'user_or_guest',
  params: itemParams,
  responses: { 200: { description: 'Where to publish', schema: StreamKeyView } },
  errors: [...ERRORS, 'invalid_argument'],
});

export const rotateStreamKey = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/stream-key',
  operationId: 'rotateStreamKey',
  summary: 'Replace the caller\'s stream key of a live item; the old key stops working and a publish with it ends (publish_livestream)',
  tags: TAGS,
  access: 'user_or_guest',
  params: itemParams,
  responses: { 200: { description: 'The new key', schema: StreamKeyView } },
  errors: [...ERRORS, 'invalid_argument'],
});
