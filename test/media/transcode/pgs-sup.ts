/**
 * A Blu-ray PGS subtitle stream (a `.sup` file) made by hand: ffmpeg decodes PGS but has no
 * encoder for it, and cannot make one from text, so the image-subtitle fixture needs its own.
 * The stream is what Blu-ray authoring tools write: for each caption a display set of PCS
 * (composition), WDS (window), PDS (palette), ODS (the run-length-encoded bitmap) and END, and
 * a display set of PCS, WDS and END with no objects where the caption is cleared.
 */

export interface PgsCaption {
  startSeconds: number;
  endSeconds: number;
}

export interface PgsOptions {
  /** The video's size: the composition's canvas. */
  width: number;
  height: number;
  captions: PgsCaption[];
}

const PCS = 0x16;
const WDS = 0x17;
const PDS = 0x14;
const ODS = 0x15;
const END = 0x80;
/** Composition states: a new epoch (everything sent again) for each caption, normal for a clear. */
const EPOCH_START = 0x80;
const NORMAL = 0x00;
/** 90 kHz, as MPEG timestamps. */
const TICKS_PER_SECOND = 90_000;

/** The caption's bitmap: a white bar framed in black, one pixel of colour index per byte. */
const BITMAP_WIDTH = 200;
const BITMAP_HEIGHT = 40;
const FRAME = 4;
const TRANSPARENT = 0;
const WHITE = 1;
const BLACK = 2;

function segment(type: number, pts: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(13);
  header.write('PG', 0, 'latin1');
  header.writeUInt32BE(pts >>> 0, 2);
  header.writeUInt32BE(0, 6); // DTS: 0, as most .sup writers put it
  header.writeUInt8(type, 10);
  header.writeUInt16BE(payload.length, 11);
  return Buffer.concat([header, payload]);
}

function composition(options: PgsOptions, number: number, state: number, object?: { x: number; y: number }): Buffer {
  const payload = Buffer.alloc(11 + (object ? 8 : 0));
  payload.writeUInt16BE(options.width, 0);
  payload.writeUInt16BE(options.height, 2);
  payload.writeUInt8(0x10, 4); // frame rate: unused by decoders, 0x10 by convention
  payload.writeUInt16BE(number, 5);
  payload.writeUInt8(state, 7);
  payload.writeUInt8(0, 8); // palette update only: no
  payload.writeUInt8(0, 9); // palette id
  payload.writeUInt8(object ? 1 : 0, 10);
  if (object) {
    payload.writeUInt16BE(0, 11); // object id
    payload.writeUInt8(0, 13); // window id
    payload.writeUInt8(0, 14); // not cropped
    payload.writeUInt16BE(object.x, 15);
    payload.writeUInt16BE(object.y, 17);
  }
  return payload;
}

function window(place: { x: number; y: number }): Buffer {
  const payload = Buffer.alloc(10);
  payload.writeUInt8(1, 0);
  payload.writeUInt8(0, 1);
  payload.writeUInt16BE(place.x, 2);
  payload.writeUInt16BE(place.y, 4);
  payload.writeUInt16BE(BITMAP_WIDTH, 6);
  payload.writeUInt16BE(BITMAP_HEIGHT, 8);
  return payload;
}

/** Palette 0, version 0, entries of id, Y, Cr, Cb, alpha (BT.601, as PGS uses): white and black, both opaque; index 0 is left transparent. */
function palette(): Buffer {
  return Buffer.from([0, 0, WHITE, 0xeb, 0x80, 0x80, 0xff, BLACK, 0x10, 0x80, 0x80, 0xff]);
}

function object(): Buffer {
  const rle = encodeBitmap();
  const payload = Buffer.alloc(11);
  payload.writeUInt16BE(0, 0); // object id
  payload.writeUInt8(0, 2); // version
  payload.writeUInt8(0xc0, 3); // first and last fragment: the whole object in one segment
  payload.writeUIntBE(rle.length + 4, 4, 3); // the data's length counts width and height
  payload.writeUInt16BE(BITMAP_WIDTH, 7);
  payload.writeUInt16BE(BITMAP_HEIGHT, 9);
  return Buffer.concat([payload, rle]);
}

function pixel(x: number, y: number): number {
  const inFrame = x < FRAME || y < FRAME || x >= BITMAP_WIDTH - FRAME || y >= BITMAP_HEIGHT - FRAME;
  if (inFrame) return BLACK;
  // Transparent gaps every 40 pixels: the caption has a shape, not only a box.
  return (x - FRAME) % 40 < 32 ? WHITE : TRANSPARENT;
}

/** One run of `length` pixels of `colour` in PGS's run-length code. */
function run(colour: number, length: number): number[] {
  if (colour === TRANSPARENT) return length < 64 ? [0, length] : [0, 0x40 | (length >> 8), length & 0xff];
  if (length < 3) return new Array<number>(length).fill(colour);
  return length < 64 ? [0, 0x80 | length, colour] : [0, 0xc0 | (length >> 8), length & 0xff, colour];
}

function encodeBitmap(): Buffer {
  const bytes: number[] = [];
  for (let y = 0; y < BITMAP_HEIGHT; y += 1) {
    let x = 0;
    while (x < BITMAP_WIDTH) {
      const colour = pixel(x, y);
      let end = x + 1;
      while (end < BITMAP_WIDTH && pixel(end, y) === colour) end += 1;
      bytes.push(...run(colour, end - x));
      x = end;
    }
    bytes.push(0, 0); // end of line
  }
  return Buffer.from(bytes);
}

/** The `.sup` bytes of `options.captions`, each shown bottom-centre from its start to its end. */
export function pgsSup(options: PgsOptions): Buffer {
  const place = { x: Math.floor((options.width - BITMAP_WIDTH) / 2), y: options.height - BITMAP_HEIGHT - 20 };
  const segments: Buffer[] = [];
  let number = 0;
  for (const caption of options.captions) {
    const shown = Math.round(caption.startSeconds * TICKS_PER_SECOND);
    const cleared = Math.round(caption.endSeconds * TICKS_PER_SECOND);
    segments.push(
      segment(PCS, shown, composition(options, number++, EPOCH_START, place)),
      segment(WDS, shown, window(place)),
      segment(PDS, shown, palette()),
      segment(ODS, shown, object()),
      segment(END, shown, Buffer.alloc(0)),
      segment(PCS, cleared, composition(options, number++, NORMAL)),
      segment(WDS, cleared, window(place)),
      segment(END, cleared, Buffer.alloc(0)),
    );
  }
  return Buffer.concat(segments);
}
