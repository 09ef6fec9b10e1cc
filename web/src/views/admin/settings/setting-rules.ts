/**
 * The form's side of a runtime setting, as GET /api/admin/settings describes it: what a field
 * holds while a person edits it (a draft), the value a draft stands for, and the checks that
 * catch most mistakes before a request. The server stays the judge: its issues are shown too.
 * Field kinds, bounds and choices come from the setting's `input` (settings/registry.ts).
 */
import type { Schemas } from '../../../api/types.js';
import { t } from '../../../i18n/i18n.js';
import { choiceLabel, itemLabel, settingLabel } from './setting-words.js';

export type Setting = Schemas['SettingView'];

/** The value `[redacted]` stands in for a credential the listing hides (settings/secret-fields.ts). */
export const REDACTED = '[redacted]';

/** One ICE server as a row of fields; `urls` is the text a person types (space- or comma-separated). */
export interface IceRow {
  urls: string;
  username: string;
  credential: string;
  /** The server holds a credential for this row that the listing hides (`credential` is then [redacted] until replaced). */
  credentialSaved: boolean;
}

export type ProviderKind = 'github' | 'oidc';

/** One OAuth2 provider as its fields; `issuer` matters only for OpenID Connect. */
export interface ProviderRow {
  kind: ProviderKind;
  instanceName: string;
  clientId: string;
  clientSecret: string;
  /** The server holds a secret for this provider that the listing hides (`clientSecret` is then [redacted] until replaced). */
  secretSaved: boolean;
  issuer: string;
  redirectUrl: string;
  enableSignup: boolean;
  signupNeedReview: boolean;
}

/** What the form holds for one key; its shape follows the setting's input kind. */
export type Draft = boolean | string | string[] | IceRow[] | ProviderRow[];

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** A one-line draft (integer, choice, text) as the string its control shows. */
export const draftText = (draft: Draft): string => (typeof draft === 'string' ? draft : '');

/** The form's starting draft for a value. */
export function draftOf(setting: Setting, value: unknown): Draft {
  const input = setting.input;
  switch (input.kind) {
    case 'boolean':
      return value === true;
    case 'integer':
    case 'choice':
    case 'text':
      return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
    case 'permissions':
    case 'textList':
      return list(value).map(text);
    case 'iceServers':
      return list(value).filter(isJson).map((server) => ({ urls: list(server.urls).map(text).join(' '), username: text(server.username), credential: text(server.credential), credentialSaved: server.credential === REDACTED }));
    case 'oauth2Providers':
      return list(value).filter(isJson).map(providerRow);
  }
}

function providerRow(provider: Json): ProviderRow {
  const kind: ProviderKind = isJson(provider.oidc) ? 'oidc' : 'github';
  const variant = isJson(provider[kind]) ? provider[kind] : {};
  return {
    kind,
    instanceName: text(provider.instanceName),
    clientId: text(variant.clientId),
    clientSecret: text(variant.clientSecret),
    secretSaved: variant.clientSecret === REDACTED,
    issuer: text(variant.issuer),
    redirectUrl: text(variant.redirectUrl),
    enableSignup: provider.enableSignup === true,
    signupNeedReview: provider.signupNeedReview === true,
  };
}

/** The value a draft stands for, or what is wrong with it in plain words. */
export function parseDraft(setting: Setting, draft: Draft): Parsed {
  const input = setting.input;
  switch (input.kind) {
    case 'boolean':
      return { ok: true, value: draft === true };
    case 'integer': {
      const typed = draftText(draft).trim();
      const number = Number(typed);
      if (typed === '' || !/^-?\d+$/.test(typed) || !Number.isSafeInteger(number) || number < input.min || number > input.max) {
        return { ok: false, message: t('admin.settings.rules.wholeNumber', { min: input.min, max: input.max }) };
      }
      return { ok: true, value: number };
    }
    case 'choice':
      return input.options.some((option) => option.value === draft) ? { ok: true, value: draft } : { ok: false, message: t('admin.settings.rules.oneOfOptions') };
    case 'text':
      return { ok: true, value: draftText(draft) };
    case 'permissions':
      // In the order the choices are offered, so that ticking and unticking leaves no trace.
      return { ok: true, value: input.choices.map((choice) => choice.value).filter((value) => (draft as string[]).includes(value)) };
    case 'textList': {
      // An empty row is refused rather than dropped, so that "element N" in the server's issues is row N.
      // "element N: " is the server's marker of an entry (see entryOf), not a word: problemInWords replaces it.
      const entries = (draft as string[]).map((entry) => entry.trim());
      const empty = entries.indexOf('');
      return empty >= 0 ? { ok: false, message: `element ${empty}: ${t('admin.settings.rules.emptyEntry')}` } : { ok: true, value: entries };
    }
    case 'iceServers':
      return { ok: true, value: (draft as IceRow[]).map(iceServerOf) };
    case 'oauth2Providers':
      return { ok: true, value: (draft as ProviderRow[]).map(providerOf) };
  }
}

function iceServerOf(row: IceRow): Json {
  const server: Json = { urls: row.urls.split(/[\s,]+/).filter((url) => url !== '') };
  if (row.username.trim() !== '') server.username = row.username.trim();
  if (row.credential !== '') server.credential = row.credential;
  return server;
}

function providerOf(row: ProviderRow): Json {
  const variant: Json = { clientId: row.clientId.trim(), clientSecret: row.clientSecret };
  if (row.kind === 'oidc') variant.issuer = row.issuer.trim();
  variant.redirectUrl = row.redirectUrl.trim();
  return { instanceName: row.instanceName.trim(), enableSignup: row.enableSignup, signupNeedReview: row.signupNeedReview, [row.kind]: variant };
}

/** Whether two JSON values (or drafts) are the same. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether two values of this setting mean the same: a permission set is a set, whatever its order. */
export function sameSettingValue(setting: Setting, a: unknown, b: unknown): boolean {
  if (setting.input.kind === 'permissions' && Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((entry) => b.includes(entry));
  }
  return sameValue(a, b);
}

/** A value in the words the page uses: "On", "20", "0 (no limit)", the labels of a choice. */
export function inWords(setting: Setting, value: unknown): string {
  const input = setting.input;
  switch (input.kind) {
    case 'boolean':
      return value === true ? t('admin.settings.values.on') : t('admin.settings.values.off');
    case 'integer':
      return value === 0 && input.zeroMeansUnlimited ? t('admin.settings.values.noLimit') : String(value);
    case 'choice': {
      const option = input.options.find((candidate) => candidate.value === value);
      return option ? choiceLabel(setting, option.value, option.label) : String(value);
    }
    case 'text':
      return text(value) === '' ? t('admin.settings.values.empty') : text(value);
    case 'permissions': {
      const names = list(value).map((entry) => {
        const choice = input.choices.find((candidate) => candidate.value === entry);
        return choice ? choiceLabel(setting, choice.value, choice.label) : text(entry);
      });
      return names.length > 0 ? names.join(t('admin.settings.values.groupSeparator')) : t('admin.settings.values.nothing');
    }
    case 'textList':
      return list(value).length > 0 ? list(value).map(text).join(t('admin.settings.values.separator')) : t('admin.settings.values.none');
    case 'iceServers':
      return list(value).length > 0 ? list(value).filter(isJson).map((server) => list(server.urls).map(text).join(' ')).join(t('admin.settings.values.groupSeparator')) : t('admin.settings.values.none');
    case 'oauth2Providers':
      return list(value).length > 0 ? list(value).filter(isJson).map((provider) => text(provider.instanceName)).join(t('admin.settings.values.separator')) : t('admin.settings.values.none');
  }
}

/** The list entry a server issue names ("element 2: ..."), if it names one. */
export function entryOf(message: string): number | undefined {
  const match = /^element (\d+): /.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** How the page calls one entry (numbered from 1) of a list setting: "Server 2", "Site address 1". */
export function entryName(setting: Setting, n: number): string {
  switch (setting.input.kind) {
    case 'textList':
      return t('admin.settings.entries.item', { item: itemLabel(setting, setting.input.itemLabel), n });
    case 'iceServers':
      return t('admin.settings.entries.server', { n });
    case 'oauth2Providers':
      return t('admin.settings.entries.provider', { n });
    default:
      return t('admin.settings.entries.entry', { n });
  }
}

// The field names server checks use (settings/rules/*), as the form's labels say them.
const FIELD_WORDS: [RegExp, (...groups: string[]) => string][] = [
  [/\burls\[(\d+)\]/g, (index = '0') => t('admin.settings.fieldWords.address', { n: Number(index) + 1 })],
  [/\b(github|oidc)\.clientSecret\b/g, () => t('admin.settings.fieldWords.clientSecret')],
  [/\b(github|oidc)\.clientId\b/g, () => t('admin.settings.fieldWords.clientId')],
  [/\b(github|oidc)\.redirectUrl\b/g, () => t('admin.settings.fieldWords.returnAddress')],
  [/\b(github|oidc)\.issuer\b/g, () => t('admin.settings.fieldWords.issuer')],
  [/\binstanceName\b/g, () => t('admin.settings.fieldWords.name')],
];

/**
 * A problem with a setting (the client's check or the server's issue, both worded as
 * "must be ...") as a sentence: led by the setting's name, or by the list entry it names
 * ("element 0" is "Server 1"), with field names as the form's labels say them.
 */
export function problemInWords(setting: Setting, message: string): string {
  let words = message;
  for (const [pattern, say] of FIELD_WORDS) words = words.replace(pattern, (_match, ...groups: string[]) => say(...groups));
  const entry = entryOf(words);
  if (entry === undefined) return t('admin.settings.problem', { setting: settingLabel(setting), problem: words });
  return t('admin.settings.entryProblem', { entry: entryName(setting, entry + 1), problem: words.replace(/^element \d+: /, '') });
}
