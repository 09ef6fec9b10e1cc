// PLACEHOLDER: the settings-registry helper replaces this file with every key of spec 2.1.
import type { SettingDefinition } from './definition.js';

export interface SettingValues {
  'server.allowRoomCreation': boolean;
  'server.maxRoomsPerUser': number;
}
export type SettingKey = keyof SettingValues;

export const settingDefinitions: readonly SettingDefinition[] = [];

export function findDefinition(key: string): SettingDefinition | undefined {
  return settingDefinitions.find((d) => d.key === key);
}
