/**
 * The viewer's remembered quality (web/src/player/quality.ts): a stored height the item has is
 * kept, one it lacks falls to the nearest lower rung, else Auto; and the control over hls.js
 * (web/src/player/hls-quality.ts) maps heights to hls.js's level indexes (sorted by bitrate,
 * lowest first), starts at the remembered rung, and switches with `nextLevel` (no stall).
 */
import test from 'ava';
import { HlsQuality, type LevelApi } from '../../../web/src/player/hls-quality.js';
import { parseQuality, qualityFor, rememberQuality, storedQuality } from '../../../web/src/player/quality.js';

const LADDER = [1080, 720, 480];

test('a stored height the item has is kept', (t) => {
  t.is(qualityFor(720, LADDER), 720);
  t.is(qualityFor(1080, LADDER), 1080);
  t.is(qualityFor(480, LADDER), 480);
});

test('a stored height the item lacks falls to the nearest lower rung', (t) => {
  t.is(qualityFor(900, LADDER), 720);
  t.is(qualityFor(2160, LADDER), 1080);
  t.is(qualityFor(720, [1080, 540, 360]), 540, 'never a higher rung than chosen');
});

test('with no lower rung, or Auto stored, it is Auto', (t) => {
  t.is(qualityFor(360, LADDER), 'auto');
  t.is(qualityFor(720, []), 'auto');
  t.is(qualityFor('auto', LADDER), 'auto');
});

test('a stored value reads as a positive whole height, anything else as Auto', (t) => {
  t.is(parseQuality(null), 'auto');
  t.is(parseQuality('auto'), 'auto');
  t.is(parseQuality('720'), 720);
  for (const garbled of ['', '0', '-480', '720.5', 'high', 'NaN']) t.is(parseQuality(garbled), 'auto', garbled);
});

test.serial('the choice is kept in localStorage under svc.quality', (t) => {
  const values = new Map<string, string>();
  const holder = globalThis as { localStorage?: unknown };
  holder.localStorage = { getItem: (key: string) => values.get(key) ?? null, setItem: (key: string, value: string) => values.set(key, value) };
  try {
    t.is(storedQuality(), 'auto', 'nothing stored');
    rememberQuality(480);
    t.is(values.get('svc.quality'), '480');
    t.is(storedQuality(), 480);
    rememberQuality('auto');
    t.is(storedQuality(), 'auto');
    holder.localStorage = {
      getItem: () => {
        throw new Error('storage is off');
      },
      setItem: () => {
        throw new Error('storage is off');
      },
    };
    t.is(storedQuality(), 'auto', 'storage refused');
    t.notThrows(() => rememberQuality(720));
  } finally {
    delete holder.localStorage;
  }
});

/** hls.js's levels of a transcode ladder (lowest bitrate first), and what was set on it. */
function fakeHls(levels = [{ height: 480, bitrate: 1_000_000 }, { height: 720, bitrate: 2_500_000 }, { height: 1080, bitrate: 5_000_000 }]) {
  const set: string[] = [];
  const hls: LevelApi & { autoLevelEnabled: boolean } = {
    levels,
    autoLevelEnabled: true,
    set startLevel(index: number) {
      set.push(`startLevel=${index}`);
    },
    set loadLevel(index: number) {
      set.push(`loadLevel=${index}`);
    },
    set nextLevel(index: number) {
      set.push(`nextLevel=${index}`);
    },
  };
  return { hls, set };
}

test('the control offers the heights highest first, each once, and starts at the remembered rung', (t) => {
  const { hls, set } = fakeHls([{ height: 480, bitrate: 1 }, { height: 720, bitrate: 2 }, { height: 720, bitrate: 3 }, { height: 1080, bitrate: 4 }, { height: 0, bitrate: 5 }]);
  const quality = new HlsQuality(hls);
  let changes = 0;
  quality.onChange(() => changes++);
  quality.start(900);
  t.deepEqual(quality.levels, [1080, 720, 480]);
  t.deepEqual(set, ['startLevel=2', 'loadLevel=2'], 'the nearest lower rung, its highest bitrate');
  t.is(quality.choice, 720);
  t.false(quality.auto);
  t.is(quality.current, null, 'nothing plays yet');
  quality.switched(2);
  t.is(quality.current, 720);
  t.is(changes, 2);
});

test('Auto remembered leaves hls.js its own start; choosing switches with nextLevel', (t) => {
  const { hls, set } = fakeHls();
  const quality = new HlsQuality(hls);
  quality.start('auto');
  t.deepEqual(set, []);
  t.true(quality.auto);
  quality.choose(1080);
  quality.choose('auto');
  quality.choose(600);
  t.deepEqual(set, ['nextLevel=2', 'nextLevel=-1', 'nextLevel=0'], '600 is the 480 rung');
  t.is(quality.choice, 480);
});

test('a stop listener hears no more changes', (t) => {
  const { hls } = fakeHls();
  const quality = new HlsQuality(hls);
  let changes = 0;
  const stop = quality.onChange(() => changes++);
  quality.switched(0);
  stop();
  quality.switched(1);
  t.is(changes, 1);
  t.is(quality.current, 720);
});

test('a fixed rung hls.js gave up on reads as Auto; an error that leaves the rung fixed changes nothing', (t) => {
  const { hls, set } = fakeHls();
  const quality = new HlsQuality(hls);
  let changes = 0;
  quality.onChange(() => changes++);
  quality.start(720);
  hls.autoLevelEnabled = false;
  quality.erred();
  t.is(quality.choice, 720, 'a fragment retried on the same rung');
  t.is(changes, 1);
  // hls.js's error handling set loadLevel to -1 before this listener heard the error.
  hls.autoLevelEnabled = true;
  quality.erred();
  t.true(quality.auto);
  t.is(changes, 2);
  t.deepEqual(set, ['startLevel=1', 'loadLevel=1'], 'nothing is set on hls.js: it already runs Auto');
  quality.erred();
  t.is(changes, 2, 'once');
});
