/**
 * A client's Range header read against a resource of known size (RFC 9110 section 14). One
 * range, or several that merge into one, is answered 206; several disjoint ranges are answered
 * 200 with the whole body, which RFC 9110 allows ("a server MAY ignore the Range header") and
 * which saves a multipart/byteranges encoder nobody's player needs. A Range that does not parse,
 * or is not in bytes, is ignored the same way.
 */
import parseRange from 'range-parser';

export type RangePlan =
  | { kind: 'whole' }
  | { kind: 'range'; start: number; end: number }
  | { kind: 'unsatisfiable' };

export function planRange(header: string | undefined, size: number): RangePlan {
  if (header === undefined || header.trim() === '') return { kind: 'whole' };
  const parsed = parseRange(size, header, { combine: true });
  if (parsed === -1) return { kind: 'unsatisfiable' };
  if (parsed === -2 || parsed.type !== 'bytes' || parsed.length !== 1) return { kind: 'whole' };
  const [range] = parsed;
  return { kind: 'range', start: range!.start, end: range!.end };
}

/**
 * The slice to fetch first when the size is not known yet: the one holding the first byte
 * asked for. A suffix range (`bytes=-N`) needs the size before its first byte is known, so it
 * starts with slice 0, whose answer carries the size in its Content-Range.
 */
export function probeSlice(header: string | undefined, sliceBytes: number): number {
  const first = /^\s*bytes\s*=\s*(\d+)\s*-/i.exec(header ?? '');
  if (!first) return 0;
  const start = Number(first[1]);
  return Number.isSafeInteger(start) ? Math.floor(start / sliceBytes) : 0;
}
