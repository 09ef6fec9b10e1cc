/**
 * The plain audio files the media probe reads (media/tools/audio-sniff.ts): told from their
 * first bytes as ffmpeg writes them, and nothing else (containers, text, noise) taken for one.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sniffAudioFile, type AudioFile } from '../../../media/tools/audio-sniff.js';
import { SNIFF_BYTES } from '../../../media/tools/container-sniff.js';

const run = promisify(execFile);

test('audio files ffmpeg writes are told by their first bytes; other media and text are not audio files', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-audio-sniff-'));
  const cases: Array<[string, string[], AudioFile | undefined]> = [
    ['a.mp3', ['-c:a', 'libmp3lame', '-write_xing', '0', '-id3v2_version', '0'], 'mp3'],
    ['tagged.mp3', ['-c:a', 'libmp3lame', '-metadata', 'title=x'], 'mp3'],
    ['a.flac', ['-c:a', 'flac'], 'flac'],
    ['a.wav', ['-c:a', 'pcm_s16le'], 'wav'],
    ['a.aac', ['-c:a', 'aac', '-f', 'adts'], 'aac'],
    ['a.mka', ['-c:a', 'libopus'], undefined],
    ['a.m4a', ['-c:a', 'aac'], undefined],
  ];
  for (const [name, args, expected] of cases) {
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=1', ...args, join(dir, name)]);
    t.is(sniffAudioFile((await readFile(join(dir, name))).subarray(0, SNIFF_BYTES)), expected, name);
  }
  t.is(sniffAudioFile(Buffer.from('#EXTM3U\n#EXTINF:10,one\nhttp://127.0.0.1/a.mp3\n')), undefined);
  t.is(sniffAudioFile(Buffer.alloc(SNIFF_BYTES, 0)), undefined);
  // A lone 0xFFF sync is not enough for ADTS: its second frame must be where the first says.
  t.is(sniffAudioFile(Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x10, 0x00, 0xfc]), randomBytes(SNIFF_BYTES)]).map((byte, at) => (at > 6 && byte === 0xff ? 0 : byte))), undefined);
});
