/** The English catalogue: one module per part of the client, each a namespace of keys (`room.*`, `chat.*`). */
import { common } from './common.js';
import { shell } from './shell.js';
import { errors } from './errors.js';
import { auth } from './auth.js';
import { account } from './account.js';
import { rooms } from './rooms.js';
import { room } from './room.js';
import { chat } from './chat.js';
import { player } from './player.js';
import { playlist } from './playlist.js';
import { members } from './members.js';
import { roomSettings } from './room-settings.js';
import { admin } from './admin.js';
import { settingText } from './setting-text.js';
import { pwa } from './pwa.js';
import { call } from './call.js';

export const en = { common, shell, errors, auth, account, rooms, room, chat, player, playlist, members, roomSettings, admin, settingText, pwa, call };
