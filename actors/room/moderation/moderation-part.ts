/**
 * The room's moderation part (docs/2026-11-26-chat-moderation.md): the word filter its editors
 * see and its slow mode's memory. Chat and danmaku call moderateChat before storing text.
 */
import { roomPart } from '../part.js';
import { SLOW_MODE } from './moderate-chat.js';
import { wordFilterView } from './word-filter.js';

export const moderationPart = roomPart({
  name: 'moderation',
  state: [SLOW_MODE],
  view: (core, access) => (access.permissions.has('edit_room_settings') ? { wordFilter: wordFilterView(core.current.options.wordFilter) } : {}),
  deleted: (core) => SLOW_MODE.of(core).clear(),
});
