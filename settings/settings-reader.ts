/**
 * The read side of the runtime settings: what a consumer that only reads values (the room
 * actor, the media proxy, play info) takes, so tests and other hosts can pass a small fake.
 */
import type { RuntimeSettings } from './runtime-settings.js';

export type SettingsReader = Pick<RuntimeSettings, 'get'>;
