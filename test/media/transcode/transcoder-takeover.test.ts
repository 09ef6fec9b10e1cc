/**
 * A transcoder process killed mid-item: two `svc serve --role transcoder` processes beside a
 * gateway and actor host; the one the item's reads go to is killed with SIGKILL while a viewer
 * reads it, and the next read of the item is served by the other one, on the same timeline
 * (it starts its own encoder where that read lands). Also: the pool is scaled by processes of
 * the role alone, found through the transcoders bucket.
 */
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { waitFor } from '../../fixtures/deadline.js';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { freePort } from '../../harness/stack.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../../harness/replica.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import { addItem, createRoom, playInfo, read, startMediaBed } from '../media-bed.js';
import { fixture } from './fixtures.js';
import { firstDecodeTimes } from './fmp4.js';

let bed: GatewayBed;
let nginx: Nginx;
let owner: Member;
const transcoders: Replica[] = [];

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-takeover-media-'));
  await copyFile(await fixture('hevc10-eac3-mkv', { seconds: 30 }), join(dir, 'film.mkv'));
  nginx = await startNginx({ root: dir });
  bed = await startMediaBed('transcode_takeover');
  owner = await bed.signUp('takeover-owner');
  const secrets = await generatedSecrets();
  for (let i = 0; i < 2; i++) {
    const env = await replicaEnv(bed.databaseUrl, secrets, {
      SVC_NATS_SUBJECT_PREFIX: bed.config.nats.subject_prefix,
      SVC_REPLICA_ID: `transcoder-${i}`,
      SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8',
      SVC_METRICS_LISTEN: `127.0.0.1:${await freePort()}`,
    });
    transcoders.push(await startReplica(['--role', 'transcoder'], env));
  }
});
test.after.always(async () => {
  await Promise.all(transcoders.map((replica) => replica.process.stop('SIGKILL')));
  await bed?.close();
  await nginx?.stop();
});

async function bytesServed(replica: Replica): Promise<number> {
  const text = await (await fetch(`${replica.metricsUrl}/metrics`)).text();
  return Number(text.split('\n').find((line) => line.startsWith('svc_transcode_bytes_total '))?.split(' ')[1] ?? NaN);
}

async function segmentStart(base: string, n: number): Promise<number> {
  const [init, segment] = await Promise.all([read(`${base}init.mp4`), read(`${base}${n}.m4s`)]);
  if (init.status !== 200 || segment.status !== 200) throw new Error(`init ${init.status}, segment ${segment.status}: ${segment.body.toString('utf8').slice(0, 300)}`);
  return firstDecodeTimes(init.body, segment.body).get(1) ?? NaN;
}

test('a transcoder killed while a viewer reads: the next read is served by another, on the same timeline', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/film.mkv`, title: 'Film' });
  await waitFor(
    'the probe of the item',
    async () => (await bed.call<{ items: MediaItem[] }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token)).body.items.find((i) => i.id === mediaId)?.reach ?? undefined,
    30_000,
    200,
  );
  const info = await playInfo(bed, roomId, mediaId, owner);
  const base = new URL(info.sources[0]!.url.replace(/master\.m3u8$/, '360/'), bed.url).href;
  t.is(await segmentStart(base, 0), 0);
  t.is(await segmentStart(base, 1), 2);

  const served = await Promise.all(transcoders.map(bytesServed));
  const busy = served.findIndex((bytes) => bytes > 0);
  t.true(busy >= 0 && served.filter((bytes) => bytes > 0).length === 1, `one transcoder serves the item: ${served.join(', ')}`);
  await transcoders[busy]!.process.stop('SIGKILL');

  // The next read: no responders on the dead one's subject, so the other one takes the item.
  t.is(await segmentStart(base, 2), 4);
  t.is(await segmentStart(base, 3), 6);
  t.true((await bytesServed(transcoders[1 - busy]!)) > 0, 'the other transcoder served it');
});
