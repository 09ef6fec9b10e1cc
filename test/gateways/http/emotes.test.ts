/**
 * Custom room emotes over HTTP against a whole service (docs/2026-11-26-room-emotes.md): only
 * holders of edit_room_settings change them, pictures are re-encoded as WebP within 128 px with
 * their animation kept, bad uploads are refused naming the field with nothing stored, the cap
 * holds, members list them, and the pictures are served under a hashed immutable URL.
 */
import test from 'ava';
import sharp from 'sharp';
import { EMOTE_LIMITS } from '../../../contracts/room/emotes.js';
import { startGatewayBed, type GatewayBed } from '../bed.js';

let bed: GatewayBed;

test.before(async () => {
  bed = await startGatewayBed('http-emotes');
});
test.after.always(async () => {
  await bed?.close();
});

interface EmoteAnswer {
  emote: { name: string; url: string; width: number; height: number; animated: boolean };
}
interface ErrorAnswer {
  code: string;
  message: string;
  issues?: Array<{ key: string; message: string }>;
}

const png = (width: number, height: number, background = '#e63') => sharp({ create: { width, height, channels: 4, background } }).png().toBuffer();
const base64 = (bytes: Buffer) => bytes.toString('base64');

async function room() {
  const owner = await bed.signUp('emote_owner');
  const member = await bed.signUp('emote_member');
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Emotes' }, owner.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  return { owner, member, roomId };
}

const list = async (roomId: string, token: string) => (await bed.call<{ emotes: EmoteAnswer['emote'][] }>('GET', `/api/rooms/${roomId}/emotes`, undefined, token)).body.emotes;

test('an admin uploads an emote: re-encoded WebP within 128 px, listed for members, served under a hashed immutable URL', async (t) => {
  const { owner, member, roomId } = await room();
  const put = await bed.call<EmoteAnswer>('PUT', `/api/rooms/${roomId}/emotes/party_parrot`, { content: base64(await png(400, 200)) }, owner.token);
  t.is(put.status, 200, JSON.stringify(put.body));
  t.like(put.body.emote, { name: 'party_parrot', width: 128, height: 64, animated: false });
  t.regex(put.body.emote.url, new RegExp(`^/media/emotes/${roomId}/[0-9a-f]{24}\\.webp$`));

  t.deepEqual(await list(roomId, member.token), [put.body.emote]);
  const served = await fetch(`${bed.url}${put.body.emote.url}`);
  t.is(served.status, 200);
  t.is(served.headers.get('content-type'), 'image/webp');
  t.is(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  t.is(served.headers.get('x-content-type-options'), 'nosniff');
  const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
  t.like(meta, { format: 'webp', width: 128, height: 64 });

  // Replacing it gives a new URL; the old one is gone.
  const again = await bed.call<EmoteAnswer>('PUT', `/api/rooms/${roomId}/emotes/party_parrot`, { content: base64(await png(64, 64, '#36e')) }, owner.token);
  t.not(again.body.emote.url, put.body.emote.url);
  t.is((await fetch(`${bed.url}${put.body.emote.url}`)).status, 404);
  t.is((await list(roomId, owner.token)).length, 1);

  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/emotes/party_parrot`, undefined, owner.token)).status, 200);
  t.deepEqual(await list(roomId, member.token), []);
  t.is((await bed.call<ErrorAnswer>('DELETE', `/api/rooms/${roomId}/emotes/party_parrot`, undefined, owner.token)).body.code, 'not_found');
});

test('an animated GIF stays animated', async (t) => {
  const { owner, roomId } = await room();
  const frames = await Promise.all(['#f00', '#0f0', '#00f'].map((background) => sharp({ create: { width: 32, height: 32, channels: 4, background } }).raw().toBuffer()));
  const gif = await sharp(Buffer.concat(frames), { raw: { width: 32, height: 96, channels: 4, pageHeight: 32 } as never })
    .gif({ delay: [100, 100, 100], loop: 0 })
    .toBuffer();
  const put = await bed.call<EmoteAnswer>('PUT', `/api/rooms/${roomId}/emotes/blink`, { content: base64(gif) }, owner.token);
  t.is(put.status, 200, JSON.stringify(put.body));
  t.like(put.body.emote, { animated: true, width: 32, height: 32 });
  const served = Buffer.from(await (await fetch(`${bed.url}${put.body.emote.url}`)).arrayBuffer());
  t.is((await sharp(served, { animated: true }).metadata()).pages, 3);
});

test('who may: members see the list but cannot change it; visitors see nothing', async (t) => {
  const { member, roomId } = await room();
  const visitor = await bed.signUp('emote_visitor');
  const refused = await bed.call<ErrorAnswer>('PUT', `/api/rooms/${roomId}/emotes/nope`, { content: base64(await png(16, 16)) }, member.token);
  t.is(refused.status, 403);
  t.regex(refused.body.message, /edit_room_settings/);
  t.is((await bed.call<ErrorAnswer>('DELETE', `/api/rooms/${roomId}/emotes/nope`, undefined, member.token)).status, 403);
  t.is((await bed.call<ErrorAnswer>('GET', `/api/rooms/${roomId}/emotes`, undefined, visitor.token)).status, 403);
  t.deepEqual(await list(roomId, member.token), []);
});

test('bad uploads are refused naming the field and store nothing: a name, text posing as a picture, SVG, too many bytes, too many pixels', async (t) => {
  const { owner, roomId } = await room();
  const put = (name: string, content: string) => bed.call<ErrorAnswer>('PUT', `/api/rooms/${roomId}/emotes/${name}`, { content }, owner.token);

  const badName = await put('Has-Caps', base64(await png(16, 16)));
  t.is(badName.status, 400);
  t.is(badName.body.issues?.[0]?.key, 'name');
  const text = await put('text', base64(Buffer.from('not a picture at all')));
  t.is(text.status, 400);
  t.is(text.body.issues?.[0]?.key, 'content');
  const svg = await put('svg', base64(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>')));
  t.is(svg.status, 400);
  t.regex(svg.body.issues?.[0]?.message ?? '', /svg; an emote is png, gif, webp/);
  const big = await put('big', base64(Buffer.alloc(EMOTE_LIMITS.maxBytes + 1, 1)));
  t.true([400, 413].includes(big.status), JSON.stringify(big.body));
  const wide = await put('wide', base64(await png(EMOTE_LIMITS.maxInputSide + 1, 8)));
  t.is(wide.status, 400);
  t.regex(wide.body.issues?.[0]?.message ?? '', /pixels/);
  t.deepEqual(await list(roomId, owner.token), []);
});

test(`a room keeps at most ${EMOTE_LIMITS.perRoom} emotes; replacing one at the cap still works`, async (t) => {
  const { owner, roomId } = await room();
  const picture = base64(await png(8, 8));
  for (let i = 0; i < EMOTE_LIMITS.perRoom; i++) {
    t.is((await bed.call('PUT', `/api/rooms/${roomId}/emotes/e${i}`, { content: picture }, owner.token)).status, 200);
  }
  const over = await bed.call<ErrorAnswer>('PUT', `/api/rooms/${roomId}/emotes/one_more`, { content: picture }, owner.token);
  t.is(over.body.code, 'limit_exceeded');
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/emotes/e0`, { content: base64(await png(9, 9)) }, owner.token)).status, 200);
  t.is((await list(roomId, owner.token)).length, EMOTE_LIMITS.perRoom);
});

/** An animation of `count` frames of `side`x`side`, each another colour, as GIF or WebP. */
async function animation(format: 'gif' | 'webp', count: number, side: number): Promise<Buffer> {
  const frames = await Promise.all(
    Array.from({ length: count }, (_, i) => sharp({ create: { width: side, height: side, channels: 4, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: 128, alpha: 1 } } }).raw().toBuffer()),
  );
  const tall = sharp(Buffer.concat(frames), { raw: { width: side, height: side * count, channels: 4, pageHeight: side } as never });
  const delay = frames.map(() => 50);
  return format === 'gif' ? tall.gif({ delay, loop: 0 }).toBuffer() : tall.webp({ delay, loop: 0, lossless: true }).toBuffer();
}

test('an animation is bounded per frame: 20 frames of 256x256 (over 1 Mpx in all) are accepted as GIF and as WebP', async (t) => {
  const { owner, roomId } = await room();
  for (const format of ['gif', 'webp'] as const) {
    const bytes = await animation(format, 20, 256);
    t.true(bytes.length <= EMOTE_LIMITS.maxBytes, `${format}: ${bytes.length} bytes`);
    const put = await bed.call<EmoteAnswer>('PUT', `/api/rooms/${roomId}/emotes/spin_${format}`, { content: base64(bytes) }, owner.token);
    t.is(put.status, 200, `${format}: ${JSON.stringify(put.body)}`);
    t.like(put.body.emote, { animated: true, width: EMOTE_LIMITS.servedSide, height: EMOTE_LIMITS.servedSide });
    const served = Buffer.from(await (await fetch(`${bed.url}${put.body.emote.url}`)).arrayBuffer());
    t.is((await sharp(served, { animated: true }).metadata()).pages, 20, format);
  }
});

test('an animation over the frame cap, or over the pixels of all frames together, is refused naming content with its own message', async (t) => {
  const { owner, roomId } = await room();
  const put = (name: string, bytes: Buffer) => bed.call<ErrorAnswer>('PUT', `/api/rooms/${roomId}/emotes/${name}`, { content: base64(bytes) }, owner.token);
  const many = await put('many', await animation('gif', EMOTE_LIMITS.maxFrames + 1, 4));
  t.is(many.status, 400);
  t.is(many.body.issues?.[0]?.key, 'content');
  t.regex(many.body.issues?.[0]?.message ?? '', new RegExp(`has ${EMOTE_LIMITS.maxFrames + 1} frames; at most ${EMOTE_LIMITS.maxFrames}`));
  // Each frame within the per-frame bound, all of them together past the total one.
  const side = EMOTE_LIMITS.maxInputSide;
  const count = Math.floor(EMOTE_LIMITS.maxTotalPixels / (side * side)) + 1;
  const heavy = await animation('gif', count, side);
  t.true(heavy.length <= EMOTE_LIMITS.maxBytes, `${heavy.length} bytes`);
  const total = await put('heavy', heavy);
  t.is(total.status, 400);
  t.is(total.body.issues?.[0]?.key, 'content');
  t.regex(total.body.issues?.[0]?.message ?? '', /pixels in all frames together/);
  t.deepEqual(await list(roomId, owner.token), []);
});
