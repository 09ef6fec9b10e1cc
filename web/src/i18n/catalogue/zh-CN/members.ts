import type { members as en } from '../en/members.js';
import type { Translation } from '../translation.js';

export const members: Translation<typeof en> = {};
