/** The danmaku endpoints of contracts/http/danmaku.ts: one room command each. */
import * as api from '../../../contracts/http/danmaku.js';
import { roomCommand, type RoomRoute } from '../room-command-route.js';

export const DANMAKU_ROUTES: readonly RoomRoute[] = [
  roomCommand(api.sendDanmaku, 'danmaku.send', { command: ({ body }) => body, answer: (result, seq) => ({ ...result, seq }), status: 201 }),
  roomCommand(api.listDanmaku, 'danmaku.list', { command: ({ params }) => ({ mediaId: params.mediaId }), answer: (result, seq) => ({ ...result, seq }) }),
];
