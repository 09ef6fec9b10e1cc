import type { chat as en } from '../en/chat.js';
import type { Translation } from '../translation.js';

export const chat: Translation<typeof en> = {};
