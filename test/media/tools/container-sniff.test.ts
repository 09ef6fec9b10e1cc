/**
 * The containers media tools are given (media/tools/container-sniff.ts): told from their first
 * bytes, and nothing else (a playlist, a manifest, a script or an audio file) is one.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { confinedInput, SNIFF_BYTES, sniffContainer, type FileContainer } from '../../../media/tools/container-sniff.js';

const run = promisify(execFile);

test('files ffmpeg writes are told by their first bytes', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-sniff-'));
  const cases: Array<[string, string[], FileContainer]> = [
    ['a.mkv', ['-c:v', 'libvpx'], 'matroska'],
    ['a.webm', ['-c:v', 'libvpx'], 'matroska'],
    ['a.mp4', ['-c:v', 'mpeg4'], 'mov'],
    ['a.mov', ['-c:v', 'mpeg4'], 'mov'],
    ['a.avi', ['-c:v', 'mpeg4'], 'avi'],
    ['a.ts', ['-c:v', 'mpeg2video'], 'mpegts'],
    ['a.ogv', ['-c:v', 'libtheora'], 'ogg'],
  ];
  for (const [name, codec, container] of cases) {
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=64x36:rate=5:duration=1', ...codec, join(dir, name)]);
    const head = (await readFile(join(dir, name))).subarray(0, SNIFF_BYTES);
    t.is(sniffContainer(head), container, name);
  }
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=1', join(dir, 'a.mp3')]);
  t.is(sniffContainer((await readFile(join(dir, 'a.mp3'))).subarray(0, SNIFF_BYTES)), undefined, 'an MP3 has no subtitle streams');
});

test('playlists, manifests, scripts and short answers are not containers', (t) => {
  for (const text of [
    '#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nhttp://127.0.0.1/a.ts\n',
    '<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011"></MPD>',
    'ffconcat version 1.0\nfile http://127.0.0.1/a.mkv\n',
    'v=0\no=- 0 0 IN IP4 127.0.0.1\n',
    '<html><body>not found</body></html>',
    '',
  ]) {
    t.is(sniffContainer(Buffer.from(text)), undefined, text.slice(0, 20));
  }
  t.is(sniffContainer(Buffer.from([0x1a, 0x45, 0xdf])), undefined, 'too short to tell');
});

test('a tool is held to the sniffed demuxer and to HTTP over TCP', (t) => {
  t.deepEqual(confinedInput('matroska', 'http://127.0.0.1:1/x'), ['-protocol_whitelist', 'http,tcp', '-format_whitelist', 'matroska', '-f', 'matroska', '-i', 'http://127.0.0.1:1/x']);
  t.deepEqual(confinedInput('mov', 'u').slice(6, 10), ['-enable_drefs', '0', '-use_absolute_path', '0']);
});
