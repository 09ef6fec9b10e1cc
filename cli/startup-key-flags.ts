/**
 * The `svc serve` options that set a startup key: one per registry row with a `flag`
 * (config/registry.ts), so an option's name and help are written once, in the key's row, and
 * its value goes to the configuration's flag layer under the key's own name.
 */
import { Option } from 'clipanion';
import { STARTUP_KEYS, type StartupKey } from '../config/index.js';

type Flagged = StartupKey & { readonly flag: NonNullable<StartupKey['flag']> };

const FLAGGED: readonly Flagged[] = STARTUP_KEYS.filter((key): key is Flagged => key.flag !== undefined);

/** The command property that holds a key's option (clipanion finds options among a command's properties). */
const propertyOf = (key: Flagged): string => `startupKey:${key.key}`;

/** The options, to assign onto a command in its constructor; --help lists them in registry order. */
export function startupKeyOptions(): Record<string, string | undefined> {
  return Object.fromEntries(FLAGGED.map((key) => [propertyOf(key), Option.String(key.flag.name, { description: `${key.key}: ${key.flag.help}` })]));
}

/** Dotted key → value of the options that were given, for `loadConfig({flags})`. */
export function startupKeyFlagValues(command: object): Record<string, string> {
  const values = command as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    FLAGGED.flatMap((key) => {
      const value = values[propertyOf(key)];
      return typeof value === 'string' ? [[key.key, value]] : [];
    }),
  );
}
