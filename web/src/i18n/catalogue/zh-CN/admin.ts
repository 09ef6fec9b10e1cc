import type { admin as en } from '../en/admin.js';
import type { Translation } from '../translation.js';

export const admin: Translation<typeof en> = {};
