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

/**
 * The script with `lift` units added to the vertical margin of every bottom-aligned style
 * ([V4+ Styles] and SSA's [V4 Styles]: alignment 1-3 in both numberings); everything else as it
 * was, byte for byte. A section without a Format line is left alone.
 */
export function withBottomLift(text: string, lift: number): string {
  if (lift === 0) return text;
  const lines = text.split(/(?<=\n)/);
  let inStyles = false;
  let alignment = -1;
  let marginV = -1;
  for (const [index, line] of lines.entries()) {
    const content = line.replace(/\r?\n$/, '');
    const section = /^\s*\[(.+)\]\s*$/.exec(content);
    if (section) {
      inStyles = /^v4\+? styles$/i.test(section[1]!.trim());
      alignment = marginV = -1;
      continue;
    }
    if (!inStyles) continue;
    const colon = content.indexOf(':');
    if (colon < 0) continue;
    const key = content.slice(0, colon).trim().toLowerCase();
    const fields = content.slice(colon + 1).split(',');
    if (key === 'format') {
      const names = fields.map((name) => name.trim().toLowerCase());
      alignment = names.indexOf('alignment');
      marginV = names.indexOf('marginv');
    } else if (key === 'style' && alignment >= 0 && marginV >= 0 && fields.length > Math.max(alignment, marginV)) {
      const align = Number.parseInt(fields[alignment]!, 10);
      const margin = Number.parseInt(fields[marginV]!, 10);
      if (!(align >= 1 && align <= 3) || Number.isNaN(margin)) continue;
      fields[marginV] = String(margin + lift);
      lines[index] = `${content.slice(0, colon + 1)}${fields.join(',')}${line.slice(content.length)}`;
    }
  }
  return lines.join('');
}
