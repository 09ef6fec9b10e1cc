/**
 * The fingerprint that says a viewer's copy is the host's file (web/src/player/local-file.ts),
 * against its definition computed independently with node:crypto: SHA-256 of the first MiB,
 * the last MiB and the size as 8 bytes big-endian (a file of at most 2 MiB: all of it, then the
 * size); and the words a viewer sees when their file is another one.
 */
import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import { fingerprintOf, formatSize, mismatchOf } from '../../../web/src/player/local-file.js';

const MIB = 1024 * 1024;

function expected(bytes: Buffer): string {
  const size = Buffer.alloc(8);
  size.writeBigUInt64BE(BigInt(bytes.length));
  const hash = createHash('sha256');
  if (bytes.length <= 2 * MIB) hash.update(bytes);
  else hash.update(bytes.subarray(0, MIB)).update(bytes.subarray(bytes.length - MIB));
  return hash.update(size).digest('hex');
}

test('fingerprint: first MiB, last MiB and the size, for a large file; all of it for a small one', async (t) => {
  for (const length of [1, 1000, 2 * MIB, 2 * MIB + 1, 5 * MIB + 123]) {
    const bytes = randomBytes(length);
    t.is(await fingerprintOf(new Blob([bytes])), expected(bytes), `${length} bytes`);
  }
});

test('fingerprint: a change in the first or last MiB changes it; the same bytes in a longer file do not match', async (t) => {
  const bytes = randomBytes(3 * MIB);
  const original = await fingerprintOf(new Blob([bytes]));
  for (const at of [0, MIB - 1, bytes.length - MIB, bytes.length - 1]) {
    const changed = Buffer.from(bytes);
    changed[at] = (changed[at]! + 1) % 256;
    t.not(await fingerprintOf(new Blob([changed])), original, `byte ${at}`);
  }
  // The middle is not read: that is the documented limit of a two-MiB check.
  const middle = Buffer.from(bytes);
  middle[bytes.length / 2] = middle[bytes.length / 2]! ^ 0xff;
  t.is(await fingerprintOf(new Blob([middle])), original);
  // Same head and tail, one byte more in the middle: the size tells them apart.
  const longer = Buffer.concat([bytes.subarray(0, MIB), Buffer.alloc(MIB + 1), bytes.subarray(2 * MIB)]);
  t.not(await fingerprintOf(new Blob([longer])), original);
});

test('mismatch: another size or other content is said precisely; the same file matches', async (t) => {
  const bytes = randomBytes(4096);
  const wanted = { fingerprint: expected(bytes), size: bytes.length, name: 'clock.webm' };
  t.is(await mismatchOf(new File([bytes], 'copy.webm'), wanted), null);
  t.is(await mismatchOf(new File([bytes.subarray(1)], 'clock.webm'), wanted), 'Not the same file: the size differs (yours, “clock.webm”, is 4095 bytes; clock.webm is 4096 bytes).');
  const other = Buffer.from(bytes);
  other[10] = other[10]! ^ 1;
  t.is(await mismatchOf(new File([other], 'clock.webm'), wanted), 'Not the same file: the content differs (yours, “clock.webm”, has the size of clock.webm but other content).');
});

test('sizes read as people read them', (t) => {
  t.is(formatSize(999), '999 bytes');
  t.is(formatSize(3_145_728), '3.1 MB');
  t.is(formatSize(734_003_200), '734 MB');
  t.is(formatSize(4_700_000_000), '4.7 GB');
});
