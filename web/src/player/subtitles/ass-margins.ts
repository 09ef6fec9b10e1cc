/**
 * An ASS script's vertical margins, in the script's own units: what ass-lift.ts gives JASSUB
 * while the player's controls show. No DOM here, so the server's tests run it too.
 */

/**
 * The script's height in its own units (PlayResY), which margins are counted in; libass's
 * defaults when the script gives one or neither of PlayResX and PlayResY.
 */
export function scriptHeight(text: string): number {
  const field = (name: string): number => Number(new RegExp(`^${name}:[ \\t]*(\\d+)`, 'mi').exec(text)?.[1] ?? 0);
  const height = field('PlayResY');
  if (height > 0) return height;
  const width = field('PlayResX');
  if (width > 0) return width === 1280 ? 1024 : Math.max(1, Math.floor((width * 3) / 4));
  return 288;
}

/** What a style says about a line's vertical place. */
interface StylePlace {
  alignment: number;
  marginV: number;
}

/** libass's own "Default" style: what an event of an unknown style gets when the script has no "Default" of its own. */
const BUILT_IN: StylePlace = { alignment: 2, marginV: 20 };

/**
 * The script with `lift` units added to the vertical margin of every line that sits at the
 * bottom: each event ([Events] Dialogue) whose alignment, its own override (`\an`, SSA's `\a`)
 * or else its style's, is 1-3 (bottom in ASS's and SSA's numbering alike). The lift goes on the
 * event's own MarginV, or on its style's when the event has none (0): a style is shared by
 * lines that an override may put at the top, whose margin then counts from the top. Lines the
 * file positioned itself (`\pos`, `\move`) or that scroll (an Effect) keep their place, and
 * everything else is the file as it came, byte for byte. Sections without a Format line are
 * left alone.
 */
export function withBottomLift(text: string, lift: number): string {
  return liftedScript(bottomLines(text), lift);
}

/** A script read once for lifting: its lines, and where each bottom line's margin goes. */
export interface BottomLines {
  /** The script as it came: what no lift gives back. */
  text: string;
  lines: readonly string[];
  /** A bottom line: its index, its text around the margin field, and the margin before the lift. */
  lifts: ReadonlyArray<{ index: number; before: string; after: string; marginV: number }>;
}

/** The script with `lift` units on each bottom line's margin (see withBottomLift). */
export function liftedScript(script: BottomLines, lift: number): string {
  if (lift === 0) return script.text;
  const lines = [...script.lines];
  for (const { index, before, after, marginV } of script.lifts) lines[index] = `${before}${marginV + lift}${after}`;
  return lines.join('');
}

/** Reads a script for withBottomLift: its cost is per script, not per lift. */
export function bottomLines(text: string): BottomLines {
  const lines = text.split(/(?<=\n)/);
  const lifts: Array<BottomLines['lifts'][number]> = [];
  const styles = new Map<string, StylePlace>();
  let defaultStyle = BUILT_IN;
  let section: 'styles' | 'events' | 'other' = 'other';
  let columns = new Map<string, number>();
  for (const [index, line] of lines.entries()) {
    const content = line.replace(/\r?\n$/, '');
    const heading = /^\s*\[(.+)\]\s*$/.exec(content);
    if (heading) {
      const name = heading[1]!.trim().toLowerCase();
      section = /^v4\+? styles$/.test(name) ? 'styles' : name === 'events' ? 'events' : 'other';
      columns = new Map();
      continue;
    }
    if (section === 'other') continue;
    const colon = content.indexOf(':');
    if (colon < 0) continue;
    const key = content.slice(0, colon).trim().toLowerCase();
    const rest = content.slice(colon + 1);
    if (key === 'format') {
      columns = new Map(rest.split(',').map((name, column) => [name.trim().toLowerCase(), column]));
      continue;
    }
    const fields = splitFields(rest, columns.size);
    const field = (name: string): string | undefined => {
      const column = columns.get(name);
      return column === undefined ? undefined : fields[column];
    };
    if (section === 'styles' && key === 'style') {
      const place = { alignment: Number.parseInt(field('alignment') ?? '', 10), marginV: Number.parseInt(field('marginv') ?? '', 10) };
      if (Number.isNaN(place.alignment) || Number.isNaN(place.marginV)) continue;
      const name = (field('name') ?? '').trim();
      // The last of a name wins, as in libass, which also takes "default" in any case as the default.
      styles.set(name, place);
      if (name.toLowerCase() === 'default') defaultStyle = place;
      continue;
    }
    if (section !== 'events' || key !== 'dialogue') continue;
    const marginColumn = columns.get('marginv');
    const textColumn = columns.get('text');
    if (marginColumn === undefined || textColumn !== columns.size - 1 || fields.length !== columns.size) continue;
    const dialogue = fields[textColumn]!;
    const overrides = overrideBlocks(dialogue);
    if ((field('effect') ?? '').trim() !== '' || overrides.some((block) => /\\(?:pos|move)\s*\(/.test(block))) continue;
    const style = styleOf(field('style') ?? '', styles) ?? defaultStyle;
    if (!isBottom(overrideAlignment(overrides) ?? style.alignment)) continue;
    const own = Number.parseInt(fields[marginColumn]!, 10);
    if (Number.isNaN(own)) continue;
    const before = `${content.slice(0, colon + 1)}${[...fields.slice(0, marginColumn), ''].join(',')}`;
    const after = `${['', ...fields.slice(marginColumn + 1)].join(',')}${line.slice(content.length)}`;
    lifts.push({ index, before, after, marginV: own !== 0 ? own : style.marginV });
  }
  return { text, lines, lifts };
}

/** A line's fields: `count` of them at most, the last (an event's text) keeping its commas. */
function splitFields(rest: string, count: number): string[] {
  const fields = rest.split(',');
  if (count < 1 || fields.length <= count) return fields;
  return [...fields.slice(0, count - 1), fields.slice(count - 1).join(',')];
}

/** The style an event names, as libass finds it: leading `*` dropped, "default" in any case is "Default". */
function styleOf(name: string, styles: ReadonlyMap<string, StylePlace>): StylePlace | undefined {
  let wanted = name.trim().replace(/^\*+/, '');
  if (wanted.toLowerCase() === 'default') wanted = 'Default';
  return styles.get(wanted);
}

/** The override blocks of an event's text: what stands between each `{` and the next `}`. */
function overrideBlocks(dialogue: string): string[] {
  const blocks: string[] = [];
  for (let open = dialogue.indexOf('{'); open !== -1; ) {
    const close = dialogue.indexOf('}', open + 1);
    if (close === -1) break;
    blocks.push(dialogue.slice(open + 1, close));
    open = dialogue.indexOf('{', close + 1);
  }
  return blocks;
}

/** The first alignment override of an event (`\an1`-`\an9`, or SSA's `\a1`-`\a11`); libass ignores later ones. */
function overrideAlignment(overrides: readonly string[]): number | undefined {
  for (const block of overrides) {
    const tag = /\\an?(\d+)/.exec(block);
    if (tag) return Number(tag[1]);
  }
  return undefined;
}

/** Bottom: 1-3 in both numberings (numpad for ASS's \an and styles, SSA's 1-3 / 5-7 / 9-11 for \a and its styles). */
function isBottom(alignment: number): boolean {
  return alignment >= 1 && alignment <= 3;
}
