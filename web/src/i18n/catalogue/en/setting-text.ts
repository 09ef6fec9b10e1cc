/**
 * The runtime settings' own words (label, description, what a setting accepts, group headings,
 * choices), by the key's dotted path: `keys.server.maxRoomsPerUser` is server.maxRoomsPerUser.
 * The English is written once, in contracts/settings/words.ts, which the server's registry reads
 * too, so what the admin pages say in English is what the server sends; the other languages
 * translate this area key for key. A setting the catalogue lacks (an operator's build may add
 * one) shows the server's words: views/admin/settings/setting-words.ts.
 */
import { SETTING_WORDS } from '../../../../../contracts/settings/words.js';

export const settingText = SETTING_WORDS;
