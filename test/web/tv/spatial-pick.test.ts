/** Where an arrow key leads (web/src/tv/spatial-pick.ts): in line beats near, wholly beyond beats overlapping, ties keep document order. */
import test from 'ava';
import { nearest, pickInDirection, type Box, type Candidate } from '../../../web/src/tv/spatial-pick.js';

const box = (left: number, top: number, width: number, height: number): Box => ({ left, top, right: left + width, bottom: top + height });
const at = (item: string, b: Box): Candidate<string> => ({ item, box: b });

// A player's bar (seek bar over buttons) and a side column with tabs at the top and a tall chat log.
const seek = at('seek', box(0, 600, 1200, 40));
const previous = at('previous', box(0, 660, 60, 60));
const play = at('play', box(70, 660, 60, 60));
const fullscreen = at('fullscreen', box(1140, 660, 60, 60));
const tab = at('tab', box(1250, 0, 150, 60));
const log = at('log', box(1250, 80, 500, 560));
const input = at('input', box(1250, 660, 400, 60));
const layout = [seek, previous, play, fullscreen, tab, log, input];

test('down from a wide seek bar goes to the button under its middle', (t) => {
  t.is(pickInDirection(seek.box, layout.filter((c) => c !== seek), 'down'), 'play');
});

test('on a tie the first candidate (document order) stays', (t) => {
  t.is(pickInDirection(box(0, 0, 100, 10), [at('a', box(0, 100, 100, 10)), at('b', box(0, 100, 100, 10))], 'down'), 'a');
});

test('up from a button goes to the seek bar in line with it, not to something nearer but off to the side', (t) => {
  t.is(pickInDirection(play.box, layout.filter((c) => c !== play), 'up'), 'seek');
});

test('right and left along a row take the next button; right off the player goes to what is level with it', (t) => {
  t.is(pickInDirection(previous.box, layout.filter((c) => c !== previous), 'right'), 'play');
  t.is(pickInDirection(play.box, layout.filter((c) => c !== play), 'left'), 'previous');
  t.is(pickInDirection(fullscreen.box, layout.filter((c) => c !== fullscreen), 'right'), 'input');
});

test('up from the chat input is the log, then the tab above it; nothing above the tab', (t) => {
  t.is(pickInDirection(input.box, layout.filter((c) => c !== input), 'up'), 'log');
  t.is(pickInDirection(log.box, layout.filter((c) => c !== log), 'up'), 'tab');
  t.is(pickInDirection(tab.box, layout.filter((c) => c !== tab), 'up'), null);
});

test('with nothing wholly beyond, a box whose centre lies that way counts (a tall neighbour)', (t) => {
  const tall = at('tall', box(100, 0, 100, 1000));
  t.is(pickInDirection(box(0, 400, 90, 40), [tall], 'right'), 'tall');
  t.is(pickInDirection(box(0, 400, 90, 40), [tall], 'left'), null);
});

test('the nearest box by centre takes the focus of one that vanished', (t) => {
  t.is(nearest(box(1120, 650, 60, 60), layout), 'fullscreen');
  t.is(nearest(box(0, 0, 1, 1), []), null);
});

test('down, a nearer box off to the side beats one in line that starts after it ends (a playlist row\'s Play, not the button under the tab)', (t) => {
  const playlistTab = box(1425, 305, 130, 66);
  const playNext = at('play next', box(1795, 491, 76, 66));
  const newFolder = at('new folder', box(1332, 594, 180, 66));
  t.is(pickInDirection(playlistTab, [newFolder, playNext], 'down'), 'play next');
  const nearFolder = at('new folder', box(1332, 420, 180, 66));
  t.is(pickInDirection(playlistTab, [nearFolder, playNext], 'down'), 'new folder', 'in line and starting before the other ends: in line wins');
});
