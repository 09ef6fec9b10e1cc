/**
 * ASS lines lifted over the player's controls (web/src/player/subtitles/ass-margins.ts, used by
 * ass-lift.ts): in the script JASSUB is given while the controls show, every line at the bottom
 * has its vertical margin raised, counted in the script's own units, and the rest is the file
 * as it came.
 */
import test from 'ava';
import { scriptHeight, withBottomLift } from '../../../web/src/player/subtitles/ass-margins.js';

const STYLE_FORMAT = 'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding';
const style = (name: string, alignment: number, marginV: number): string => `Style: ${name},Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,${alignment},10,10,${marginV},1`;
const event = (styleName: string, marginV: number | string, text: string, effect = ''): string => `Dialogue: 0,0:00:00.00,0:00:05.00,${styleName},,0,0,${marginV},${effect},${text}`;

const script = (styles: string[], events: string[], eol = '\n'): string =>
  ['[Script Info]', 'ScriptType: v4.00+', 'PlayResY: 720', '', '[V4+ Styles]', STYLE_FORMAT, ...styles, '', '[Events]', 'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text', ...events, ''].join(eol);

const STYLES = [style('Default', 2, 30), style('Left', 1, 0), style('Sign', 8, 30), style('Middle', 5, 30)];

test('a line at the bottom gets the lift on its own margin, or on its style’s when it has none; top and middle lines and the styles stay', (t) => {
  const before = script(STYLES, [
    event('Default', 0, 'Bottom, from its style'),
    event('Left', 0, 'Bottom left, a style margin of 0'),
    event('Default', 45, 'Bottom, a margin of its own'),
    event('Sign', 0, 'A sign at the top'),
    event('Middle', 0, 'In the middle'),
  ]);
  const expected = before
    .replace(event('Default', 0, 'Bottom, from its style'), event('Default', 130, 'Bottom, from its style'))
    .replace(event('Left', 0, 'Bottom left, a style margin of 0'), event('Left', 100, 'Bottom left, a style margin of 0'))
    .replace(event('Default', 45, 'Bottom, a margin of its own'), event('Default', 145, 'Bottom, a margin of its own'));
  t.is(withBottomLift(before, 100), expected);
});

test('an alignment override decides: a top line of a bottom style stays at the top, a bottom line of a top style rises; the first override counts', (t) => {
  const before = script(STYLES, [
    event('Default', 0, '{\\an8}Moved to the top'),
    event('Sign', 0, '{\\fad(200,200)\\an2}Moved to the bottom'),
    event('Sign', 0, '{\\an1}Bottom first{\\an9}, then a second override libass ignores'),
    event('Default', 0, '{\\alpha&H80&}Transparent, still at the bottom'),
  ]);
  const expected = before
    .replace(event('Sign', 0, '{\\fad(200,200)\\an2}Moved to the bottom'), event('Sign', 50, '{\\fad(200,200)\\an2}Moved to the bottom'))
    .replace(event('Sign', 0, '{\\an1}Bottom first{\\an9}, then a second override libass ignores'), event('Sign', 50, '{\\an1}Bottom first{\\an9}, then a second override libass ignores'))
    .replace(event('Default', 0, '{\\alpha&H80&}Transparent, still at the bottom'), event('Default', 50, '{\\alpha&H80&}Transparent, still at the bottom'));
  t.is(withBottomLift(before, 20), expected, 'the top line of the Default style does not move down by the lift either');
});

test('lines the file placed itself or that scroll keep their place; a text with commas and line ends is kept whole', (t) => {
  const placed = script(STYLES, [
    event('Default', 0, '{\\pos(640,700)}Placed'),
    event('Default', 0, '{\\move(0,700,1280,700)}Moving'),
    event('Default', 0, 'Rolling credits', 'Scroll up;100;600;50'),
  ]);
  t.is(withBottomLift(placed, 40), placed);

  const crlf = script(STYLES, [event('Default', 0, 'Well, then, {\\i1}we go{\\i0}, now.')], '\r\n');
  t.is(withBottomLift(crlf, 0), crlf, 'no lift: the script as it came');
  t.is(withBottomLift(crlf, 7), crlf.replace(event('Default', 0, 'Well, then, {\\i1}we go{\\i0}, now.'), event('Default', 37, 'Well, then, {\\i1}we go{\\i0}, now.')));
});

test('an event of a style the script lacks is laid out with its "Default" (any case), else libass’s own; "*Default" is Default', (t) => {
  const withDefault = script([style('DEFAULT', 8, 30)], [event('Missing', 0, 'Falls back to a top Default'), event('*Default', 0, 'Also Default')]);
  t.is(withBottomLift(withDefault, 10), withDefault);
  const without = script([style('Sign', 8, 30)], [event('Missing', 0, 'libass’s own Default: bottom, margin 20')]);
  t.is(withBottomLift(without, 10), without.replace(event('Missing', 0, 'libass’s own Default: bottom, margin 20'), event('Missing', 30, 'libass’s own Default: bottom, margin 20')));
});

test("the columns are found by each section's Format line, in any order; a section without one is left alone", (t) => {
  const reordered = ['[V4+ Styles]', 'Format: Name, MarginV, Alignment', 'Style: A, 20, 2', 'Style: B, 20, 7', '', '[Events]', 'Format: Style, MarginV, Text', 'Dialogue: A,0,Low', 'Dialogue: B,0,High', ''].join('\n');
  t.is(withBottomLift(reordered, 5), reordered.replace('Dialogue: A,0,Low', 'Dialogue: A,25,Low'));
  const noFormat = ['[V4+ Styles]', style('Default', 2, 30), '', '[Events]', event('Default', 0, 'x'), ''].join('\n');
  t.is(withBottomLift(noFormat, 5), noFormat);
});

test("SSA's [V4 Styles] and its \\a override count 1-3 as bottom too (6 is its top centre)", (t) => {
  const ssa = [
    '[V4 Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding',
    'Style: Default,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,2,30,30,30,0,0',
    'Style: Top,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,6,30,30,30,0,0',
    '',
    '[Events]',
    'Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    'Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,Bottom',
    'Dialogue: Marked=0,0:00:01.00,0:00:02.00,Top,,0000,0000,0000,,Top',
    'Dialogue: Marked=0,0:00:01.00,0:00:02.00,Top,,0000,0000,0000,,{\\a2}Bottom by override',
    'Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0000,0000,0000,,{\\a10}Middle by override',
    '',
  ].join('\n');
  const lifted = withBottomLift(ssa, 10);
  t.true(lifted.includes('Default,,0000,0000,40,,Bottom\n'));
  t.true(lifted.includes('Top,,0000,0000,0000,,Top\n'));
  t.true(lifted.includes('Top,,0000,0000,40,,{\\a2}Bottom by override\n'));
  t.true(lifted.includes('Default,,0000,0000,0000,,{\\a10}Middle by override\n'));
  t.true(lifted.includes('Style: Default,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,2,30,30,30,0,0'), 'styles are not changed');
});

test("the script's height is its PlayResY, or libass's default from PlayResX or from neither", (t) => {
  t.is(scriptHeight(script([], [])), 720);
  t.is(scriptHeight('[Script Info]\nPlayResX: 640\n'), 480);
  t.is(scriptHeight('[Script Info]\nPlayResX: 1280\n'), 1024);
  t.is(scriptHeight('[Script Info]\nTitle: none\n'), 288);
});
