import type { roomSettings as en } from '../en/room-settings.js';
import type { Translation } from '../translation.js';

export const roomSettings: Translation<typeof en> = {};
