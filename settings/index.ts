/**
 * The public surface of settings/: what code outside settings/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { definitionsOfGroup, findDefinition, settingDefinitions, type IceServer, type OAuth2ProviderSettings, type SettingKey } from './registry.js';
export { domainNameProblem } from './rules/domain-name.js';
export { allowlistEntries } from './rules/email-allowlist.js';
export { RuntimeSettings, type SettingChangeEvent } from './runtime-settings.js';
export { keepRedactedSecrets, redactSettingValue } from './secret-fields.js';
export { type SettingsReader } from './settings-reader.js';
