/**
 * The shared transcode through the whole service (gateway, actor host and transcoder roles of
 * one process, nginx serving the test media as a real upstream): an added item is probed and
 * the playlist says how it reaches browsers; the play endpoint answers the transcode's master
 * playlist; segments come on the fixed timeline, from where a player asks (a seek restarts the
 * encoder there); two rooms playing one file share one encode; a busy transcoder answers
 * clearly and the item plays as it is, until the room moves on to it; a probe of an address the proxy refuses is refused.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import { waitFor } from '../../fixtures/deadline.js';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { testStack } from '../../harness/stack.js';
import { openTranscodeClient, type TranscodeClient } from '../../../media/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { addItem, createRoom, playInfo, read, startMediaBed } from '../media-bed.js';
import { fixture } from './fixtures.js';
import { firstDecodeTimes } from './fmp4.js';
import { serveFiles, type RangeServer } from './range-server.js';

interface Play {
  sources: Array<{ url: string; type: string }>;
  transcode?: { how: string; heights: number[]; refused?: string };
}

let bed: GatewayBed;
let nginx: Nginx;
let slow: RangeServer;
let longFile: string;
let owner: Member;
let nats: NatsConnection;
let client: TranscodeClient;

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-transcode-media-'));
  const [hevc, ac3, long] = await Promise.all([fixture('hevc10-eac3-mkv'), fixture('h264-ac3-mkv'), fixture('hevc10-eac3-mkv', { seconds: 60 })]);
  await Promise.all([copyFile(hevc, join(dir, 'hevc.mkv')), copyFile(ac3, join(dir, 'ac3.mkv'))]);
  nginx = await startNginx({ root: dir });
  // A slow upstream keeps its encoder running for as long as a test needs it busy.
  slow = await serveFiles([long], 64 * 1024);
  longFile = long;
  bed = await startMediaBed('transcode_service', { SVC_TRANSCODER_MAX_ENCODES: '1' }, ['gateway', 'actors', 'transcoder']);
  owner = await bed.signUp('transcode-owner');
  nats = await connect({ servers: testStack().natsUrl });
  client = await openTranscodeClient(nats, bed.config.nats.subject_prefix, bed.config.nats.replicas);
});
test.after.always(async () => {
  await client?.close();
  await nats?.close();
  await bed?.close();
  await slow?.close();
  await nginx?.stop();
});

/** The item once its probe has answered (the room publishes it with its reach). */
async function probed(roomId: string, mediaId: string): Promise<MediaItem & { reach: MediaReach }> {
  return waitFor(
    'the probe of the item',
    async () => {
      const answer = await bed.call<{ items: MediaItem[] }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
      const item = answer.body.items.find((entry) => entry.id === mediaId);
      return item?.reach ? (item as MediaItem & { reach: MediaReach }) : undefined;
    },
    30_000,
    200,
  );
}

const absolute = (path: string) => new URL(path, bed.url).href;

async function segmentStart(base: string, n: number): Promise<number> {
  const [init, segment] = await Promise.all([read(`${base}init.mp4`), read(`${base}${n}.m4s`)]);
  if (init.status !== 200 || segment.status !== 200) throw new Error(`init ${init.status}, segment ${segment.status}: ${segment.body.toString('utf8').slice(0, 300)}`);
  // The video track's (track 1 of our encodes): it is cut exactly on the timeline.
  const time = firstDecodeTimes(init.body, segment.body).get(1);
  if (time === undefined) throw new Error(`segment ${n} has no video fragment (${segment.body.length} bytes)`);
  return time;
}

test.serial('an HEVC 10-bit file: the playlist says it is converted, the player gets the shared transcode, segments come on the timeline from where a player asks', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/hevc.mkv`, title: 'HEVC' });
  const { reach } = await probed(roomId, mediaId);
  t.like(reach, { how: 'video', heights: [360], videoTreatment: 'convert', audioTreatment: 'convert' });
  t.true(reach.blockers.some((blocker) => blocker.kind === 'video' && /HEVC/.test(blocker.name)), JSON.stringify(reach.blockers));

  const info = (await playInfo(bed, roomId, mediaId, owner)) as unknown as Play;
  t.deepEqual(info.transcode, { how: 'video', heights: [360] });
  t.is(info.sources[0]?.type, 'hls');
  const master = await read(absolute(info.sources[0]!.url));
  t.is(master.status, 200);
  t.regex(master.body.toString('utf8'), /RESOLUTION=640x360,CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"\n360\/index\.m3u8/);
  const base = absolute(info.sources[0]!.url.replace(/master\.m3u8$/, '360/'));
  const playlist = (await read(`${base}index.m3u8`)).body.toString('utf8');
  t.is(playlist.match(/^#EXTINF:2\.0\d\d,$/gm)?.length, 6, '12 s in segments of 2 s');

  // A player joining a room 8 s in asks for segment 4 first: the encoder starts there.
  t.is(await segmentStart(base, 4), 8);
  t.is(await segmentStart(base, 5), 10);
  // A seek back to the start: the encoder restarts at 0, on the same timeline.
  t.is(await segmentStart(base, 0), 0);
  t.is(await segmentStart(base, 1), 2);
  const missing = await read(`${base}99.m4s`);
  t.is(missing.status, 404);

  // A desktop player that decodes HEVC (svc watch's mpv) asks for the item as it is.
  const original = await bed.call<Play>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play?original=true`, undefined, owner.token);
  t.is(original.status, 200);
  t.is(original.body.sources[0]?.url, `${nginx.url}/hevc.mkv`);
  t.is(original.body.transcode, undefined);
  const bad = await bed.call<{ code: string; issues: Array<{ key: string }> }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play?original=yes`, undefined, owner.token);
  t.is(bad.status, 400);
  t.is(bad.body.issues[0]?.key, 'original');
});

async function metric(name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return Number(line?.split(' ')[1] ?? NaN);
}

test.serial('two rooms playing one file share one encode: the second room reads what the first made', async (t) => {
  const [first, second] = [await createRoom(bed, owner), await createRoom(bed, owner)];
  const items = await Promise.all([first, second].map((roomId) => addItem(bed, roomId, owner, { url: `${nginx.url}/hevc.mkv`, title: 'Shared' })));
  await Promise.all([probed(first, items[0]!), probed(second, items[1]!)]);
  const bases = await Promise.all([0, 1].map(async (i) => {
    const roomId = [first, second][i]!;
    const info = (await playInfo(bed, roomId, items[i]!, owner)) as unknown as Play;
    return absolute(info.sources[0]!.url.replace(/master\.m3u8$/, '360/'));
  }));
  t.is(await segmentStart(bases[0]!, 2), 4);
  const hits = await metric('svc_transcode_segment_reads_total', '{outcome="hit"}');
  t.is(await segmentStart(bases[1]!, 2), 4, "the other room's segment, on the same timeline");
  t.is(await metric('svc_transcode_segment_reads_total', '{outcome="hit"}'), hits + 1, 'served from the segments the first room made');
  t.true((await metric('svc_transcode_encodes_running')) <= 1);
});

test.serial('a busy transcoder answers clearly, and the item plays as it is', async (t) => {
  // The encoders of the tests before end with their 12 s of media.
  await waitFor('no encoder running', async () => ((await metric('svc_transcode_encodes_running')) === 0 ? true : undefined), 30_000, 100);
  const roomId = await createRoom(bed, owner);
  const busy = await addItem(bed, roomId, owner, { url: slow.url(longFile), title: 'Slow', proxy: true });
  await probed(roomId, busy);
  const info = (await playInfo(bed, roomId, busy, owner)) as unknown as Play;
  t.deepEqual(info.transcode, { how: 'video', heights: [360] });
  const base = absolute(info.sources[0]!.url.replace(/master\.m3u8$/, '360/'));
  // Its encoder starts, and keeps running: the upstream sends 64 KiB a second.
  t.is(await segmentStart(base, 0), 0);

  const other = await addItem(bed, roomId, owner, { url: `${nginx.url}/ac3.mkv`, title: 'AC3', proxy: true });
  t.like((await probed(roomId, other)).reach, { how: 'audio', videoTreatment: 'copy', audioTreatment: 'convert' });
  // Someone still watches the slow item (a read just now): its encoder is not given up.
  t.is(await segmentStart(base, 1), 2);
  const refused = (await playInfo(bed, roomId, other, owner)) as unknown as Play;
  t.is(refused.transcode?.how, 'audio');
  t.regex(refused.transcode?.refused ?? '', /all 1 encoders of the transcoder .* are in use; try again in 10 s/);
  t.is(refused.sources[0]?.type, 'file', 'the media as it is, through the proxy');
  t.regex(refused.sources[0]?.url ?? '', /^\/media\/proxy\//);

  // The room moves on to the other item: the encoder only this room read gives its place up at once.
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: other }, owner.token)).status, 200);
  const admitted = (await playInfo(bed, roomId, other, owner)) as unknown as Play;
  t.is(admitted.transcode?.refused, undefined);
  t.is(admitted.sources[0]?.type, 'hls');
});

test.serial('a probe of an address the proxy refuses is refused before any tool runs', async (t) => {
  const roomId = await createRoom(bed, owner);
  const item: MediaItem = {
    id: 'refused',
    title: 'Elsewhere',
    url: `http://[::1]:${nginx.port}/hevc.mkv`,
    provider: 'direct',
    headers: {},
    subtitles: [],
    live: false,
    proxy: true,
    seekable: 'unknown',
    reach: null,
    addedBy: owner.userId,
    addedAt: Date.now(),
    folderId: null,
  };
  const before = (await nginx.requests()).length;
  const error = await t.throwsAsync(client.probe(roomId, item, new AbortController().signal));
  t.like(error, { code: 'forbidden' });
  t.regex(error?.message ?? '', /::1/);
  t.is((await nginx.requests()).length, before, 'nothing reached the upstream');
});
