/**
 * A runtime setting's words in the page's language: its label, description, what it accepts,
 * its group's heading and its choices' words. The server sends them in English with each setting
 * (settings/registry.ts); the catalogue's `settingText` area has them by key, and its English is
 * the one the server reads (contracts/settings/words.ts). A setting, group or choice the
 * catalogue lacks (an operator's build may add one) shows the server's own words.
 *
 * Plain `t`, not a hook: the views that call these read `useT()`, so a switch re-renders them.
 */
import { SETTING_EXAMPLES } from '../../../../../contracts/settings/words.js';
import { t } from '../../../i18n/i18n.js';
import { wordsOr as words } from '../../../i18n/words-or.js';

interface Choice {
  readonly value: string;
  readonly label: string;
}

/** The part of a setting's input these words depend on (GET /api/admin/settings, settings/definition.ts). */
export type SettingWordsInput =
  | { readonly kind: 'integer'; readonly min: number; readonly max: number; readonly zeroMeansUnlimited: boolean }
  | { readonly kind: 'choice'; readonly options: readonly Choice[] }
  | { readonly kind: 'permissions'; readonly choices: readonly Choice[] }
  | { readonly kind: 'textList'; readonly itemLabel: string }
  | { readonly kind: 'boolean' | 'text' | 'iceServers' | 'oauth2Providers' };

/** What the server says about a setting in words: a setting view, or the registry's definition. */
export interface SettingWordsSource {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  readonly accepts: string;
  readonly input: SettingWordsInput;
}

/**
 * Examples inside a setting's sentences, kept out of the catalogue so that a translation holds
 * no addresses (which are not words to translate) and cannot mistype them; the server fills the
 * same ones into the English it sends.
 */
const EXAMPLES: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map(Object.entries(SETTING_EXAMPLES));

const keyPath = (setting: SettingWordsSource, leaf: string): string[] => ['settingText', 'keys', ...setting.key.split('.'), leaf];

export function settingLabel(setting: SettingWordsSource): string {
  return words(keyPath(setting, 'label'), setting.label, EXAMPLES.get(setting.key));
}

export function settingDescription(setting: SettingWordsSource): string {
  return words(keyPath(setting, 'description'), setting.description, EXAMPLES.get(setting.key));
}

/** A group's heading; `fallback` is the server's `groupLabel`. */
export function groupLabel(group: string, fallback: string): string {
  return words(['settingText', 'groups', group], fallback);
}

/**
 * The words of one value a choice or permission setting offers; `fallback` is the server's. A
 * permission is said as the room's permission form says it (the server takes both from
 * contracts/permissions/labels.ts).
 */
export function choiceLabel(setting: SettingWordsSource, value: string, fallback: string): string {
  const path = setting.input.kind === 'permissions' ? ['roomSettings', 'permission', value, 'label'] : ['settingText', 'choices', ...setting.key.split('.'), value];
  return words(path, fallback);
}

/** What one entry of a list-of-texts setting is called ("Site address"). */
export function itemLabel(setting: SettingWordsSource, fallback: string): string {
  return words(keyPath(setting, 'itemLabel'), fallback);
}

/**
 * What a setting accepts. The server generates it for booleans, integers, choices and
 * permission lists (settings/rules/setting-kinds.ts), so those are generated here the same way
 * from the page's words; text and JSON settings have their own sentence per key.
 */
export function settingAccepts(setting: SettingWordsSource): string {
  const input = setting.input;
  switch (input.kind) {
    case 'boolean':
      return t('settingText.accepts.boolean');
    case 'integer':
      return t(input.zeroMeansUnlimited ? 'settingText.accepts.integerNoLimit' : 'settingText.accepts.integer', { min: input.min, max: input.max });
    case 'choice': {
      const options = input.options.map((option) => choiceLabel(setting, option.value, option.label));
      return t('settingText.accepts.choice', { options: options.join(t('settingText.accepts.optionSeparator')) });
    }
    case 'permissions': {
      // Inside an English sentence a permission's words start in lower case; Chinese has no case.
      const permissions = input.choices.map((choice) => choiceLabel(setting, choice.value, choice.label).toLowerCase());
      return t('settingText.accepts.permissions', { permissions: permissions.join(t('settingText.accepts.permissionSeparator')) });
    }
    default:
      return words(keyPath(setting, 'accepts'), setting.accepts, EXAMPLES.get(setting.key));
  }
}
