/**
 * The shape of one runtime setting (spec section 2.1). The registry in `registry.ts` holds
 * one definition per key; storage, sync and the management API only ever go through it.
 */
export type SettingType = 'bool' | 'i64' | 'u64' | 'string' | 'enum' | 'json';

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; message: string };

export interface SettingDefinition<T = unknown> {
  /** `<group>.<name>`, for example `server.maxRoomsPerUser`. */
  readonly key: string;
  readonly group: string;
  readonly name: string;
  readonly type: SettingType;
  readonly default: T;
  readonly description: string;
  /** Human-readable rule, for `settings list` and error messages (for example `1..=1000`). */
  readonly rule: string;
  /** Accepts a decoded value (from JSON) and answers the typed value or the broken rule. */
  validate(value: unknown): ValidationResult<T>;
  /**
   * Decodes the CLI text form (`--set name=value`): `true`/`false` for bool, integers for
   * i64/u64, the raw text for string and enum, JSON for json. Never throws.
   */
  parse(raw: string): ValidationResult<T>;
}
