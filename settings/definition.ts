/**
 * The shape of one runtime setting (spec section 2.1). The registry in `registry.ts` holds
 * one definition per key; storage, sync and the management API only ever go through it.
 */
export type SettingType = 'bool' | 'i64' | 'u64' | 'string' | 'enum' | 'json';

/** One value a person can pick, with the words a page shows for it. */
export interface SettingChoice {
  readonly value: string;
  readonly label: string;
}

/**
 * How a form edits the value, so that pages build fields from the registry instead of
 * re-reading `rule`: integers with their bounds, choices with their words, and the JSON values
 * by their shape (a permission list, a list of texts, ICE servers, OAuth2 providers).
 */
export type SettingInput =
  | { readonly kind: 'boolean' }
  | { readonly kind: 'integer'; readonly min: number; readonly max: number; readonly zeroMeansUnlimited: boolean }
  | { readonly kind: 'choice'; readonly options: readonly SettingChoice[] }
  | { readonly kind: 'text' }
  | { readonly kind: 'permissions'; readonly choices: readonly SettingChoice[] }
  | { readonly kind: 'textList'; readonly itemLabel: string }
  | { readonly kind: 'iceServers' }
  | { readonly kind: 'oauth2Providers' };

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; message: string };

export interface SettingDefinition<T = unknown> {
  /** `<group>.<name>`, for example `server.maxRoomsPerUser`. */
  readonly key: string;
  readonly group: string;
  /** The group's heading for people, for example "Sign-up and guests". */
  readonly groupLabel: string;
  readonly name: string;
  readonly type: SettingType;
  readonly default: T;
  /** A short human name, for example "Rooms per person". */
  readonly label: string;
  /** One plain sentence: what the setting does. */
  readonly description: string;
  /** What values are accepted, in plain words (for example "A whole number from 1 to 1000."). */
  readonly accepts: string;
  readonly input: SettingInput;
  /** The technical rule, for `settings list` and error messages (for example `1..=1000`). */
  readonly rule: string;
  /** Accepts a decoded value (from JSON) and answers the typed value or the broken rule. */
  validate(value: unknown): ValidationResult<T>;
  /**
   * Decodes the CLI text form (`--set name=value`): `true`/`false` for bool, integers for
   * i64/u64, the raw text for string and enum, JSON for json. Never throws.
   */
  parse(raw: string): ValidationResult<T>;
}
