import type { auth as en } from '../en/auth.js';
import type { Translation } from '../translation.js';

export const auth: Translation<typeof en> = {};
