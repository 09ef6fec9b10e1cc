import type { room as en } from '../en/room.js';
import type { Translation } from '../translation.js';

export const room: Translation<typeof en> = {};
