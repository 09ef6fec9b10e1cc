import type { player as en } from '../en/player.js';
import type { Translation } from '../translation.js';

export const player: Translation<typeof en> = {};
