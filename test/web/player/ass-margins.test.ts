/**
 * ASS lines lifted over the player's controls (web/src/player/subtitles/ass-margins.ts, used by ass-lift.ts): the script
 * JASSUB is given while the controls show has the bottom-aligned styles' vertical margins
 * raised, counted in the script's own units, and is otherwise the file as it came.
 */
import test from 'ava';
import { scriptHeight, withBottomLift } from '../../../web/src/player/subtitles/ass-margins.js';

const script = (styles: string, eol = '\n'): string =>
  [
    '[Script Info]',
    'ScriptType: v4.00+',
    'PlayResY: 720',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    styles,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    'Dialogue: 0,0:00:00.00,0:00:05.00,Default,,0,0,0,,Style: not a style line, 2,1,3',
    '',
  ].join(eol);

const style = (name: string, alignment: number, marginV: number): string => `Style: ${name},Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,${alignment},10,10,${marginV},1`;

test('bottom-aligned styles get the lift on their vertical margin; top and middle ones do not', (t) => {
  const before = script([style('Default', 2, 30), style('Left', 1, 0), style('Right', 3, 12), style('Sign', 8, 30), style('Middle', 5, 30)].join('\n'));
  const expected = before
    .replace(style('Default', 2, 30), style('Default', 2, 130))
    .replace(style('Left', 1, 0), style('Left', 1, 100))
    .replace(style('Right', 3, 12), style('Right', 3, 112));
  // Top (8) and middle (5) styles, and an event whose text looks like a style line, stay as they were.
  t.is(withBottomLift(before, 100), expected);
});

test('no lift gives the script back as it came, and CRLF line ends survive a lift', (t) => {
  const crlf = script(style('Default', 2, 30), '\r\n');
  t.is(withBottomLift(crlf, 0), crlf);
  const lifted = withBottomLift(crlf, 7);
  t.is(lifted, crlf.replace(style('Default', 2, 30), style('Default', 2, 37)));
});

test("the columns are found by the section's Format line, in any order; a section without one is left alone", (t) => {
  const reordered = ['[V4+ Styles]', 'Format: Name, MarginV, Alignment', 'Style: A, 20, 2', 'Style: B, 20, 7', ''].join('\n');
  t.is(withBottomLift(reordered, 5), ['[V4+ Styles]', 'Format: Name, MarginV, Alignment', 'Style: A,25, 2', 'Style: B, 20, 7', ''].join('\n'));
  const noFormat = ['[V4+ Styles]', style('Default', 2, 30), ''].join('\n');
  t.is(withBottomLift(noFormat, 5), noFormat);
});

test("SSA's [V4 Styles] are lifted too (its bottom alignments are 1-3 as well)", (t) => {
  const ssa = ['[V4 Styles]', 'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding', 'Style: Default,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,2,30,30,30,0,0', 'Style: Top,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,6,30,30,30,0,0', ''].join('\n');
  const lifted = withBottomLift(ssa, 10);
  t.true(lifted.includes('Style: Default,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,2,30,30,40,0,0'));
  t.true(lifted.includes('Style: Top,Arial,20,16777215,65535,65535,-2147483640,-1,0,1,3,0,6,30,30,30,0,0'), "SSA's 6 is top centre");
});

test("the script's height is its PlayResY, or libass's default from PlayResX or from neither", (t) => {
  t.is(scriptHeight(script('')), 720);
  t.is(scriptHeight('[Script Info]\nPlayResX: 640\n'), 480);
  t.is(scriptHeight('[Script Info]\nPlayResX: 1280\n'), 1024);
  t.is(scriptHeight('[Script Info]\nTitle: none\n'), 288);
});
