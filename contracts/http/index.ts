/** Every public endpoint, in the order the OpenAPI document lists them. */
import * as admin from './admin.js';
import * as adminRooms from './admin-rooms.js';
import * as adminSettings from './admin-settings.js';
import * as auth from './auth.js';
import * as chat from './chat.js';
import * as danmaku from './danmaku.js';
import * as emotes from './emotes.js';
import * as email from './email.js';
import type { Endpoint } from './endpoint.js';
import * as libraries from './libraries.js';
import * as live from './live.js';
import * as media from './media.js';
import * as subtitles from './subtitles.js';
import * as members from './members.js';
import * as notifications from './notifications.js';
import * as oauth2 from './oauth2.js';
import * as playback from './playback.js';
import * as playlist from './playlist.js';
import * as call from './call.js';
import * as polls from './polls.js';
import * as publicInfo from './public.js';
import * as realtime from './realtime.js';
import * as rooms from './rooms.js';
import * as twoFactor from './two-factor.js';
import * as users from './users.js';
import * as webauthn from './webauthn.js';

function endpointsOf(module: Record<string, unknown>): Endpoint[] {
  return Object.values(module).filter((value): value is Endpoint => typeof value === 'object' && value !== null && 'operationId' in value);
}

export const ENDPOINTS: readonly Endpoint[] = [
  ...endpointsOf(publicInfo),
  ...endpointsOf(auth),
  ...endpointsOf(email),
  ...endpointsOf(twoFactor),
  ...endpointsOf(users),
  ...endpointsOf(webauthn),
  ...endpointsOf(oauth2),
  ...endpointsOf(rooms),
  ...endpointsOf(members),
  ...endpointsOf(playlist),
  ...endpointsOf(live),
  ...endpointsOf(libraries),
  ...endpointsOf(playback),
  ...endpointsOf(media),
  ...endpointsOf(subtitles),
  ...endpointsOf(chat),
  ...endpointsOf(polls),
  ...endpointsOf(call),
  ...endpointsOf(danmaku),
  ...endpointsOf(emotes),
  ...endpointsOf(admin),
  ...endpointsOf(notifications),
  ...endpointsOf(realtime),
  ...endpointsOf(adminRooms),
  ...endpointsOf(adminSettings),
];
