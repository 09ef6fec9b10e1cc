/**
 * The runtime settings' words in the web client's catalogue (`settingText`) against the server's
 * registry: every setting, group, choice and list entry has English there equal to what the
 * server sends, so the admin pages say the same in English whichever side is reworded, and a
 * new setting without catalogue words fails here by its key. In Chinese, every one of them is
 * said in Chinese (the catalogue test checks the Chinese sentences themselves).
 */
import test from 'ava';
import { settingDefinitions, settingGroups } from '../../../settings/registry.js';
import { en } from '../../../web/src/i18n/catalogue/en/index.js';
import { loadLocale } from '../../../web/src/i18n/i18n.js';
import {
  choiceLabel,
  groupLabel,
  itemLabel,
  settingAccepts,
  settingDescription,
  settingLabel,
  type SettingWordsSource,
} from '../../../web/src/views/admin/settings/setting-words.js';

type Tree = { readonly [name: string]: string | Tree };

/** The catalogue's English at a dotted path, or undefined. */
function english(path: string): string | undefined {
  let node: string | Tree | undefined = en;
  for (const name of path.split('.')) node = typeof node === 'object' && Object.hasOwn(node, name) ? node[name] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Each piece of a setting's words: where the catalogue holds it, the server's text, and how the page says it. */
interface Piece {
  name: string;
  path: string | null;
  server: string;
  shown: () => string;
}

// What the server generates by kind (booleans, integers, choices, permission lists) has no sentence per key.
const GENERATED_ACCEPTS = new Set(['boolean', 'integer', 'choice', 'permissions']);

function piecesOf(definition: SettingWordsSource): Piece[] {
  const { key, input } = definition;
  const pieces: Piece[] = [
    { name: `${key} label`, path: `settingText.keys.${key}.label`, server: definition.label, shown: () => settingLabel(definition) },
    { name: `${key} description`, path: `settingText.keys.${key}.description`, server: definition.description, shown: () => settingDescription(definition) },
    {
      name: `${key} accepts`,
      path: GENERATED_ACCEPTS.has(input.kind) ? null : `settingText.keys.${key}.accepts`,
      server: definition.accepts,
      shown: () => settingAccepts(definition),
    },
  ];
  if (input.kind === 'choice') {
    for (const option of input.options) {
      pieces.push({ name: `${key} choice ${option.value}`, path: `settingText.choices.${key}.${option.value}`, server: option.label, shown: () => choiceLabel(definition, option.value, option.label) });
    }
  }
  if (input.kind === 'permissions') {
    for (const choice of input.choices) {
      pieces.push({ name: `${key} permission ${choice.value}`, path: `roomSettings.permission.${choice.value}.label`, server: choice.label, shown: () => choiceLabel(definition, choice.value, choice.label) });
    }
  }
  if (input.kind === 'textList') {
    pieces.push({ name: `${key} item label`, path: `settingText.keys.${key}.itemLabel`, server: input.itemLabel, shown: () => itemLabel(definition, input.itemLabel) });
  }
  return pieces;
}

const groups = settingGroups().map((group) => {
  const server = settingDefinitions.find((definition) => definition.group === group)?.groupLabel ?? '';
  return { name: `group ${group}`, path: `settingText.groups.${group}`, server, shown: () => groupLabel(group, server) };
});
const pieces: Piece[] = [...settingDefinitions.flatMap(piecesOf), ...groups];

test.serial('every setting, group, choice and list entry has catalogue English equal to the server’s', async (t) => {
  await loadLocale('en');
  const missing = pieces.filter((piece) => piece.path !== null && english(piece.path) === undefined).map((piece) => `${piece.name} (${piece.path})`);
  t.deepEqual(missing, [], 'server words with no catalogue entry: add them to web/src/i18n/catalogue/{en,zh-CN}/setting-text.ts');
  const differing = pieces.filter((piece) => piece.shown() !== piece.server).map((piece) => `${piece.name}: page says "${piece.shown()}", server says "${piece.server}"`);
  t.deepEqual(differing, [], 'the English page must say exactly what the server says');
  t.true(pieces.length > settingDefinitions.length * 3);
});

test.serial('in Chinese, every setting, group, choice and list entry is said in Chinese', async (t) => {
  await loadLocale('zh-CN');
  try {
    const english = pieces.filter((piece) => piece.shown() === piece.server || !/\p{Script=Han}/u.test(piece.shown())).map((piece) => `${piece.name}: "${piece.shown()}"`);
    t.deepEqual(english, []);
    const integer = settingDefinitions.find((definition) => definition.key === 'server.maxRoomsPerUser');
    t.is(integer && settingAccepts(integer), '1 到 1000 之间的整数。');
    const choice = settingDefinitions.find((definition) => definition.key === 'room.passwordPolicy');
    t.is(choice && settingAccepts(choice), '以下之一：可选、必须、不允许。');
  } finally {
    await loadLocale('en');
  }
});

test.serial('a setting the catalogue does not know (an operator’s own) shows the server’s words', async (t) => {
  await loadLocale('zh-CN');
  try {
    const own: SettingWordsSource = {
      key: 'extra.motd',
      label: 'Message of the day',
      description: 'Shown on the front page.',
      accepts: 'Any text.',
      input: { kind: 'text' },
    };
    t.is(settingLabel(own), 'Message of the day');
    t.is(settingDescription(own), 'Shown on the front page.');
    t.is(settingAccepts(own), 'Any text.');
    t.is(groupLabel('extra', 'Extras'), 'Extras');
    // A key that is a name on every object is not taken for a catalogue entry.
    t.is(groupLabel('constructor', 'Built in'), 'Built in');
    const choice: SettingWordsSource = { key: 'room.theme', label: 'Theme', description: 'd', accepts: 'a', input: { kind: 'choice', options: [{ value: 'dark', label: 'Dark' }] } };
    t.is(choiceLabel(choice, 'dark', 'Dark'), 'Dark');
  } finally {
    await loadLocale('en');
  }
});
