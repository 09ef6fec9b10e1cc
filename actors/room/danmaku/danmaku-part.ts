/**
 * The danmaku part (docs/2026-11-26-reactions-and-danmaku.md): comments pinned to a moment of an
 * item, read from PostgreSQL, never held in memory. It reacts to nothing: its rows go with the
 * room's (the foreign key), and the room option that turns it on is the room record's.
 */
import { roomPart } from '../part.js';
import { listComments, sendComment } from './danmaku-handlers.js';

export const danmakuPart = roomPart({
  name: 'danmaku',
  handlers: {
    'danmaku.send': sendComment,
    'danmaku.list': listComments,
  },
});
