import type { account as en } from '../en/account.js';
import type { Translation } from '../translation.js';

export const account: Translation<typeof en> = {};
