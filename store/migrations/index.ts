import { migration0001 } from './0001_settings.js';
import type { Migration } from './types.js';

export type { Migration };

/** Every migration this binary knows, in the order they run. Append only; never edit a shipped one. */
export const migrations: readonly Migration[] = [migration0001];
