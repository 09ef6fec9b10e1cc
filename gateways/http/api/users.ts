/** The current user (`/api/me`). A leaf module (zod and the error codes only). */
import { z } from 'zod';
import { UserView } from './common.js';
import { defineEndpoint } from './endpoint.js';

export const getMe = defineEndpoint({
  method: 'get',
  path: '/api/me',
  operationId: 'getMe',
  summary: 'The signed-in user, or the guest',
  tags: ['users'],
  access: 'user_or_guest',
  responses: {
    200: {
      description: 'Who the access token belongs to',
      schema: z.object({ user: UserView.optional(), guest: z.object({ id: z.string(), displayName: z.string() }).optional() }),
    },
  },
  errors: ['unauthenticated'],
});
