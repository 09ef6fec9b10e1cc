import { Option } from 'clipanion';
import { AppError } from '../errors/index.js';

const MAX_WAIT_SECONDS = 3600;

/** `--wait <seconds>`: how long a start keeps trying while a dependency cannot be reached. */
export function waitOption(what: string): string {
  return Option.String('--wait', '0', { description: `Seconds to keep retrying while ${what} cannot be reached (0..${MAX_WAIT_SECONDS}; default 0: fail at once)` });
}

/** The option's value in ms, or `invalid` naming `--wait`. */
export function waitMs(raw: string): number {
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || seconds > MAX_WAIT_SECONDS) {
    throw AppError.invalid([{ key: '--wait', message: `must be a whole number of seconds from 0 to ${MAX_WAIT_SECONDS} (got "${raw}")` }]);
  }
  return seconds * 1000;
}
