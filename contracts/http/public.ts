/**
 * What clients read before signing in (`/api/public/...`): the server's version and enabled
 * sign-in and signup methods, and its clock. A leaf module.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint.js';

const TAGS = ['public'];
const Signup = z.strictObject({ enabled: z.boolean(), needsReview: z.boolean() });

export const PublicInfo = z
  .strictObject({
    version: z.string(),
    signIn: z
      .strictObject({
        opaque: z.boolean(),
        password: z.boolean().meta({ description: 'Direct password transport' }),
        email: z.boolean().meta({ description: 'Password reset by email (needs SMTP)' }),
        webauthn: z.boolean(),
        oauth2: z.array(z.string()).meta({ description: 'Provider instance names with a login entry point' }),
      })
      .meta({ description: 'Sign-in methods for existing accounts' }),
    signup: z.strictObject({
      password: Signup.meta({ description: 'OPAQUE and direct password registration (user.enablePasswordSignup)' }),
      email: Signup.meta({ description: 'user.enableEmailSignup, and SMTP configured' }),
      webauthn: Signup,
      oauth2: z.array(z.strictObject({ instanceName: z.string(), enabled: z.boolean(), needsReview: z.boolean() })),
    }),
    guests: z.boolean().meta({ description: 'user.enableGuest' }),
    rooms: z.strictObject({
      creationAllowed: z.boolean().meta({ description: 'server.allowRoomCreation and not room.disableCreateRoom' }),
      creationNeedsReview: z.boolean(),
      passwordPolicy: z.enum(['optional', 'required', 'forbidden']),
      maxRoomsPerUser: z.number().int(),
      maxMembersPerRoom: z.number().int(),
    }),
    calls: z.strictObject({
      sfu: z.boolean().meta({
        description: 'The server has an SFU (startup key sfu.url): screen sharing, cameras and the SFU call. Without it, voice runs between browsers.',
      }),
    }),
  })
  .meta({ id: 'PublicInfo' });

export const getPublicInfo = defineEndpoint({
  method: 'get',
  path: '/api/public/info',
  operationId: 'getPublicInfo',
  summary: 'The server version, enabled sign-in and signup methods, guest access and room policy',
  tags: TAGS,
  access: 'public',
  responses: { 200: { description: 'Server information', schema: PublicInfo } },
  errors: [],
});

export const getServerTime = defineEndpoint({
  method: 'get',
  path: '/api/public/time',
  operationId: 'getServerTime',
  summary: 'The server clock, for clients estimating their offset (sentAt of playback commands)',
  tags: TAGS,
  access: 'public',
  responses: { 200: { description: 'Now', schema: z.strictObject({ now: z.number().int().meta({ description: 'Server ms since the epoch' }) }) } },
  errors: [],
});
