/**
 * Reads what a viewer's player reads from fMP4 segments: each track's timescale (from the init
 * segment's `mdhd`) and each fragment's first decode time (`tfdt`), in seconds.
 */

interface Box {
  type: string;
  start: number;
  end: number;
}

function* boxes(bytes: Buffer, from: number, to: number): Generator<Box> {
  let offset = from;
  while (offset + 8 <= to) {
    let size = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      size = Number(bytes.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = to - offset;
    }
    yield { type, start: offset + header, end: offset + size };
    offset += size;
  }
}

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'moof', 'traf']);

/** Track id → timescale, from an init segment. */
export function timescales(init: Buffer): Map<number, number> {
  const scales = new Map<number, number>();
  let track = 0;
  const walk = (from: number, to: number) => {
    for (const box of boxes(init, from, to)) {
      if (CONTAINERS.has(box.type)) walk(box.start, box.end);
      else if (box.type === 'tkhd') track = init.readUInt32BE(box.start + (init[box.start] === 1 ? 20 : 12));
      else if (box.type === 'mdhd') scales.set(track, init.readUInt32BE(box.start + (init[box.start] === 1 ? 20 : 12)));
    }
  };
  walk(0, init.length);
  return scales;
}

/** Track id → the first fragment's decode time in seconds, of a media segment. */
export function firstDecodeTimes(init: Buffer, segment: Buffer): Map<number, number> {
  const scales = timescales(init);
  const times = new Map<number, number>();
  let track = 0;
  const walk = (from: number, to: number) => {
    for (const box of boxes(segment, from, to)) {
      if (CONTAINERS.has(box.type)) walk(box.start, box.end);
      else if (box.type === 'tfhd') track = segment.readUInt32BE(box.start + 4);
      else if (box.type === 'tfdt' && !times.has(track)) {
        const ticks = segment[box.start] === 1 ? Number(segment.readBigUInt64BE(box.start + 4)) : segment.readUInt32BE(box.start + 4);
        times.set(track, ticks / (scales.get(track) ?? 1));
      }
    }
  };
  walk(0, segment.length);
  return times;
}
