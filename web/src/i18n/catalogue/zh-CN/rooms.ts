import type { rooms as en } from '../en/rooms.js';
import type { Translation } from '../translation.js';

export const rooms: Translation<typeof en> = {};
