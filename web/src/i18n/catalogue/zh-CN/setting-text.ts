import type { settingText as en } from '../en/setting-text.js';
import type { Translation } from '../translation.js';

export const settingText: Translation<typeof en> = {};
