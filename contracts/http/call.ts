/**
 * The room's SFU call and its stage (docs/2026-11-29-sfu.md): a token for the stage or the call
 * (two SFU rooms: every member watches the stage, use_webrtc talks in the call), a screen share
 * started and stopped, a microphone muted by a moderator. The call's media flows between
 * the browser and the SFU (LiveKit); these endpoints decide who may send what. A leaf module.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';
import { CallSource, SfuPart, StageShare } from '../room/model.js';
import { idempotencyHeaders, roomId, seq } from './room.js';
import { userId } from '../room/fields.js';

const TAGS = ['call'];
const ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const roomParams = z.strictObject({ roomId });

/** RTCIceServer with `urls` always an array (contracts/room/model.ts IceServer). */
const IceServerSchema = z
  .strictObject({ urls: z.array(z.string()), username: z.string().optional(), credential: z.string().optional() })
  .meta({ id: 'IceServer' });

const kbps = (what: string) => z.number().int().min(0).meta({ description: `${what}, in kbit/s (0: nothing may be sent)` });

export const CallGrant = z
  .strictObject({
    url: z.string().meta({ description: 'The SFU address the browser opens (ws: or wss:)' }),
    part: SfuPart.meta({ description: 'Which of the room\'s SFU rooms the token opens: the stage (screens) or the call (voices and cameras)' }),
    token: z.string().meta({ description: 'The SFU access token: this room\'s stage or call only, as this caller, with what they may publish there' }),
    expiresAt: z.number().int().meta({ description: 'Epoch ms after which the token no longer opens the call (a connected call stays up)' }),
    identity: z.string().meta({ description: "The caller's participant identity in the call (their user or guest id)" }),
    sources: z.array(CallSource).meta({ description: 'What the caller may publish there now: on the stage, screen_share while they hold a share; in the call, microphone and camera' }),
    moderator: z.boolean().meta({ description: 'May mute others and stop their shares (manage_members)' }),
    iceServers: z.array(IceServerSchema).meta({ description: "The service's own TURN servers, with credentials, for a network where only a relay gets through" }),
    limits: z
      .strictObject({
        memberKbps: kbps("All of one member's tracks together (sfu.memberMaxKbps)"),
        shareKbps: kbps('One screen share, its audio included (sfu.shareMaxKbps)'),
        cameraKbps: kbps('One camera (sfu.cameraMaxKbps)'),
      })
      .meta({ description: 'The bitrate caps the client encodes within' }),
    cameraRefused: z
      .string()
      .optional()
      .meta({ description: "Why camera is not among the sources although the caller may talk: the room's bandwidth is taken (sfu.roomMaxKbps)" }),
  })
  .meta({ id: 'CallGrant' });
export type CallGrant = z.infer<typeof CallGrant>;

export const joinCall = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/call',
  operationId: 'joinCall',
  summary: "A token for the room's SFU stage (every member) or call (use_webrtc, else forbidden); unavailable when the service has no SFU",
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  body: z.strictObject({ part: SfuPart }),
  bodyExamples: { stage: { part: 'stage' }, call: { part: 'call' } },
  responses: { 200: { description: 'The SFU address and a token for it', schema: CallGrant } },
  errors: [...ERRORS],
});

const ShareAnswer = z.strictObject({ share: StageShare, seq }).meta({ id: 'ShareAnswer' });

export const startShare = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/stage',
  operationId: 'startShare',
  summary: 'Show a screen to the room (share_screen): the caller may then publish screen_share in the call; conflict when the stage is full',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    keepPlaying: z.boolean().optional().meta({ description: 'The synced item plays on under the share; absent or false: the room pauses it' }),
  }),
  bodyExamples: { pause: {}, keepPlaying: { keepPlaying: true } },
  responses: { 201: { description: 'The share, on the stage', schema: ShareAnswer } },
  errors: [...ERRORS, 'limit_exceeded'],
});

export const stopShare = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/stage/{userId}',
  operationId: 'stopShare',
  summary: "Stop a share: one's own, or anyone's with manage_members",
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId, userId }),
  headers: idempotencyHeaders,
  responses: { 200: { description: 'stopped: false when there was no such share', schema: z.strictObject({ stopped: z.boolean(), seq }).meta({ id: 'ShareStopped' }) } },
  errors: [...ERRORS],
});

export const muteInCall = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/call/mute',
  operationId: 'muteInCall',
  summary: "Mute someone's microphone in the SFU call (manage_members); they may unmute themselves",
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ userId }),
  bodyExamples: { mute: { userId: 'u_2f0c9a' } },
  responses: { 200: { description: 'muted: false when they had no microphone in the call', schema: z.strictObject({ muted: z.boolean(), seq }).meta({ id: 'CallMuteAnswer' }) } },
  errors: [...ERRORS],
});
