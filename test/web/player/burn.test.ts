/**
 * Picture subtitles burned in, as the player chooses them (web/src/player/subtitles/burn.ts):
 * the choice holds for its item only and is forgotten when another plays; the burned master
 * replaces the sources only when the answer offers that stream; the menu's names read
 * "<language or title> (picture, burned in)", told apart when two would read alike.
 */
import test from 'ava';
import { burnChoice, burnedLabel, burnFor, chooseBurn, forgetBurnUnless, sourcesFor, type BurnableSubtitle } from '../../../web/src/player/subtitles/burn.js';

const stream = (change: Partial<BurnableSubtitle>): BurnableSubtitle => ({ index: 2, codec: 'hdmv_pgs_subtitle', language: 'eng', title: 'Signs', url: '/media/transcode/t/master-s2.m3u8', ...change });

const plain = [{ url: '/media/transcode/t/master.m3u8', type: 'hls' as const }];

test.serial('a choice holds for its item only, and is forgotten when another item plays', (t) => {
  chooseBurn('a', 2);
  t.is(burnFor(burnChoice.value, 'a'), 2);
  t.is(burnFor(burnChoice.value, 'b'), null, "another item does not see it");
  forgetBurnUnless('a');
  t.deepEqual(burnChoice.value, { mediaId: 'a', index: 2 }, 'the same item keeps it');
  forgetBurnUnless('b');
  t.is(burnChoice.value, null);
  t.is(burnFor(burnChoice.value, 'a'), null, 'coming back to the item starts plain');
  chooseBurn('a', 2);
  chooseBurn('a', null);
  t.is(burnChoice.value, null, 'Off or a text track goes back to the plain source');
});

test('the burned master replaces the sources when it is offered, else the sources play as they are', (t) => {
  const transcode = { how: 'remux' as const, heights: [360], burnable: [stream({})] };
  t.deepEqual(sourcesFor({ sources: plain, transcode }, 2), { sources: [{ url: '/media/transcode/t/master-s2.m3u8', type: 'hls' }], burned: 2 });
  t.deepEqual(sourcesFor({ sources: plain, transcode }, null), { sources: plain, burned: null });
  t.deepEqual(sourcesFor({ sources: plain, transcode }, 3), { sources: plain, burned: null }, 'a stream not offered');
  t.deepEqual(sourcesFor({ sources: plain, transcode: { how: 'remux', heights: [360] } }, 2), { sources: plain, burned: null }, 'nothing offered');
  t.deepEqual(sourcesFor({ sources: plain }, 2), { sources: plain, burned: null }, 'not transcoded');
});

test("the menu's names: language, else title, else the stream's number; twins told apart", (t) => {
  const signs = stream({});
  t.is(burnedLabel(signs, [signs]), 'eng (picture, burned in)');
  t.is(burnedLabel(stream({ language: null }), []), 'Signs (picture, burned in)');
  t.is(burnedLabel(stream({ language: null, title: null, index: 5 }), []), 'stream 5 (picture, burned in)');
  const full = stream({ index: 3, title: 'Full' });
  t.is(burnedLabel(signs, [signs, full]), 'eng · Signs (picture, burned in)');
  t.is(burnedLabel(full, [signs, full]), 'eng · Full (picture, burned in)');
  const untitled = stream({ index: 4, title: null });
  t.is(burnedLabel(untitled, [signs, untitled]), 'eng · stream 4 (picture, burned in)');
});
