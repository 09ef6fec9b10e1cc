import type { playlist as en } from '../en/playlist.js';
import type { Translation } from '../translation.js';

export const playlist: Translation<typeof en> = {};
