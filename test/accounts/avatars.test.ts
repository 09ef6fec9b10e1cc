/**
 * Avatars over HTTP against a whole service: the upload is decoded, cropped, resized and
 * re-encoded (metadata gone), capped in bytes and pixels, refused naming `content` with nothing
 * stored, and served under a content-hashed URL with exact headers.
 */
import test from 'ava';
import sharp from 'sharp';
import { AVATAR_LIMITS } from '../../accounts/profiles/avatar-image.js';
import { LIMITS } from '../../accounts/rate-limits.js';
import { startGatewayBed, type GatewayBed } from '../gateways/bed.js';

let bed: GatewayBed;

test.before(async () => {
  bed = await startGatewayBed('avatars');
});
test.after.always(async () => {
  await bed?.close();
});

interface AvatarAnswer {
  avatar: { hash: string; large: string; small: string };
}

const picture = (width: number, height: number, background = '#3a6') => sharp({ create: { width, height, channels: 3, background } });
const base64 = (bytes: Buffer) => bytes.toString('base64');

async function fetchBytes(path: string): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const answer = await fetch(`${bed.url}${path}`, { redirect: 'manual' });
  return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
}

test('an uploaded JPEG with EXIF GPS is served re-encoded as square WebP without metadata, under a hashed immutable URL', async (t) => {
  const me = await bed.signUp('avatar');
  const upload = await picture(900, 600)
    .jpeg()
    .withExif({ IFD0: { ImageDescription: 'HOME-ADDRESS-MARKER' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
    .toBuffer();
  t.truthy((await sharp(upload).metadata()).exif, 'the upload carries EXIF');
  t.true(upload.includes('HOME-ADDRESS-MARKER'));

  const put = await bed.call<AvatarAnswer>('PUT', '/api/me/avatar', { content: base64(upload) }, me.token);
  t.is(put.status, 200);
  const { hash, large, small } = put.body.avatar;
  t.regex(hash, /^[0-9a-f]{24}$/);

  for (const [url, side] of [
    [large, 256],
    [small, 64],
  ] as const) {
    const served = await fetchBytes(url);
    t.is(served.status, 200);
    t.is(served.headers.get('content-type'), 'image/webp');
    t.is(served.headers.get('x-content-type-options'), 'nosniff');
    t.is(served.headers.get('content-security-policy'), "default-src 'none'");
    t.regex(served.headers.get('cache-control') ?? '', /immutable/);
    const metadata = await sharp(served.bytes).metadata();
    t.is(metadata.format, 'webp');
    t.is(metadata.width, side);
    t.is(metadata.height, side);
    t.is(metadata.exif, undefined, 'no EXIF (and so no GPS) comes out');
    t.false(served.bytes.includes('HOME-ADDRESS-MARKER'));
    t.false(served.bytes.equals(upload));
  }

  // The unversioned address redirects to the current version, revalidated each time.
  const pointer = await fetchBytes(`/media/avatars/${me.userId}/small`);
  t.is(pointer.status, 302);
  t.is(pointer.headers.get('location'), small);
  t.is(pointer.headers.get('cache-control'), 'no-cache');
  t.deepEqual((await bed.call<{ avatar: unknown }>('GET', '/api/me/avatar', undefined, me.token)).body, put.body);

  // A new upload is a new URL; the old one stops answering.
  const second = await bed.call<AvatarAnswer>('PUT', '/api/me/avatar', { content: base64(await picture(100, 100, '#36a').png().toBuffer()) }, me.token);
  t.not(second.body.avatar.hash, hash);
  t.is((await fetchBytes(large)).status, 404);
  t.is((await fetchBytes(second.body.avatar.large)).status, 200);

  t.is((await bed.call('DELETE', '/api/me/avatar', undefined, me.token)).status, 204);
  t.is((await fetchBytes(`/media/avatars/${me.userId}/large`)).status, 204, 'none: no content, not an error a browser logs');
  t.is((await fetchBytes(second.body.avatar.large)).status, 404);
  t.deepEqual((await bed.call('GET', '/api/me/avatar', undefined, me.token)).body, { avatar: null });
});

test('an animated GIF becomes its first frame; PNG and WebP are read', async (t) => {
  const me = await bed.signUp('gif');
  const red = await picture(40, 40, '#f00').png().toBuffer();
  const blue = await picture(40, 40, '#00f').png().toBuffer();
  const animated = await sharp([red, blue], { join: { animated: true } })
    .gif()
    .toBuffer();
  t.is((await sharp(animated).metadata()).pages, 2);
  const put = await bed.call<AvatarAnswer>('PUT', '/api/me/avatar', { content: base64(animated) }, me.token);
  t.is(put.status, 200);
  const served = (await fetchBytes(put.body.avatar.small)).bytes;
  t.is((await sharp(served).metadata()).pages ?? 1, 1);
  const { data } = await sharp(served).raw().toBuffer({ resolveWithObject: true });
  t.true(data[0]! > 200 && data[2]! < 50, 'the first (red) frame, not the second (blue)');

  for (const bytes of [await picture(50, 50).webp().toBuffer(), await picture(50, 50).png().toBuffer()]) {
    t.is((await bed.call('PUT', '/api/me/avatar', { content: base64(bytes) }, me.token)).status, 200);
  }
});

test('bad pictures are refused naming content, and nothing is stored', async (t) => {
  const me = await bed.signUp('refused');
  const huge = await sharp({ create: { width: 4097, height: 16, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
  const tiff = await picture(20, 20).tiff().toBuffer();
  const truncated = (await picture(400, 400).jpeg().toBuffer()).subarray(0, 300);
  for (const [label, bytes] of [
    ['4097 pixels wide', huge],
    ['SVG', svg],
    ['TIFF', tiff],
    ['truncated JPEG', truncated],
    ['text', Buffer.from('not a picture at all')],
  ] as const) {
    const answer = await bed.call<{ code: string; message: string; issues: Array<{ key: string }> }>('PUT', '/api/me/avatar', { content: base64(bytes) }, me.token);
    t.is(answer.status, 400, label);
    t.is(answer.body.code, 'invalid_argument', label);
    t.is(answer.body.issues[0]?.key, 'content', label);
  }
  const tooBig = await bed.call<{ code: string; issues: Array<{ key: string }> }>('PUT', '/api/me/avatar', { content: base64(Buffer.alloc(5 * 1024 * 1024 + 1, 1)) }, me.token);
  t.is(tooBig.status, 413);
  t.is(tooBig.body.issues[0]?.key, 'content');
  t.deepEqual((await bed.call('GET', '/api/me/avatar', undefined, me.token)).body, { avatar: null });
  t.is((await fetchBytes(`/media/avatars/${me.userId}/small`)).status, 204);

  const guest = await bed.guest();
  t.is((await bed.call('PUT', '/api/me/avatar', { content: base64(await picture(10, 10).png().toBuffer()) }, guest.token)).status, 403);
  t.is((await bed.call('PUT', '/api/me/avatar', { content: 'x' })).status, 401);
});


test('uploads are rate limited per user: the one past the limit inside the window is rate_limited with Retry-After, and decodes nothing', async (t) => {
  const me = await bed.signUp('often');
  const other = await bed.signUp('other');
  const { points } = LIMITS.avatarUploadsPerUser;
  const bytes = base64(await picture(32, 32).png().toBuffer());
  for (let i = 0; i < points; i++) t.is((await bed.call('PUT', '/api/me/avatar', { content: bytes }, me.token)).status, 200, `upload ${i + 1}`);
  const over = await bed.call<{ code: string }>('PUT', '/api/me/avatar', { content: bytes }, me.token);
  t.is(over.status, 429);
  t.is(over.body.code, 'rate_limited');
  const retryAfter = Number(over.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= LIMITS.avatarUploadsPerUser.durationSeconds, String(retryAfter));
  t.is((await bed.call('PUT', '/api/me/avatar', { content: bytes }, other.token)).status, 200, 'counted per user');
});

test('a picture over the pixel cap that fits an avatar is refused naming content, before it is decoded', async (t) => {
  const me = await bed.signUp('pixels');
  const side = AVATAR_LIMITS.maxSide;
  const over = await picture(side + 1, side + 1).png().toBuffer();
  const answer = await bed.call<{ code: string; issues: Array<{ key: string; message: string }> }>('PUT', '/api/me/avatar', { content: base64(over) }, me.token);
  t.is(answer.status, 400);
  t.is(answer.body.issues[0]?.key, 'content');
  t.regex(answer.body.issues[0]?.message ?? '', new RegExp(`${side + 1}x${side + 1} pixels; at most ${side}x${side}`));
  t.true(side * side <= 4096 * 1024, `${side}x${side} is a bound that fits a 256 px avatar`);
  t.is((await bed.call('PUT', '/api/me/avatar', { content: base64(await picture(side, side - 10).jpeg().toBuffer()) }, me.token)).status, 200, 'at the cap');
});
