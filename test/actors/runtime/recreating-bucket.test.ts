/**
 * The transcoder directory and the live registry live in NATS's memory
 * (actors/runtime/kv-bucket.ts): a single NATS server that restarts comes back without them.
 * Their writers make them again (actors/runtime/recreating-bucket.ts), so a key does not stay
 * missing until some process happens to open the bucket.
 */
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import { waitFor } from '../../fixtures/deadline.js';
import { startPrivateNats, type PrivateServer } from '../../harness/stack.js';
import { natsOptions } from '../../../server/connections.js';
import { TranscoderDirectory, TranscoderHeartbeat } from '../../../media/transcode/transcoder-directory.js';
import { transcodersBucket } from '../../../media/transcode/transcode-wire.js';
import { LiveRegistry } from '../../../gateways/rtmp/live-registry.js';

let nats: PrivateServer;
const connections: NatsConnection[] = [];

test.before(async () => {
  nats = await startPrivateNats();
});
test.after.always(async () => {
  await Promise.all(connections.map((nc) => nc.close().catch(() => undefined)));
  await nats?.destroy();
});

async function connection(name: string): Promise<NatsConnection> {
  const nc = await connect(natsOptions([nats.url], name));
  connections.push(nc);
  return nc;
}

const entry = (id: string) => () => ({ id, running: 0, limit: 2, encoder: 'libx264' });

test.serial('after a NATS restart lost the transcoders bucket, the running transcoder makes it again; directories old and new see every transcoder', async (t) => {
  const prefix = 'restart';
  const before = await TranscoderDirectory.open(await connection('directory-before'), prefix, 1);
  t.teardown(() => before.close());
  const first = await TranscoderHeartbeat.start(await connection('transcoder-1'), prefix, 1, entry('transcoder-1'));
  t.teardown(() => first.stop());
  await waitFor('the directory to see the first transcoder', () => (before.size === 1 ? true : undefined), 10_000, 50);

  await nats.stop();
  await nats.start();
  // Nobody opens the bucket: the running transcoder's next beats make it again.
  const probe = await connection('probe');
  const jsm = await probe.jetstreamManager();
  const stream = `KV_${transcodersBucket(prefix)}`;
  await waitFor('the heartbeat to make the bucket again', async () => ((await jsm.streams.info(stream).then((info) => info.state.messages, () => 0)) > 0 ? true : undefined), 30_000, 100);

  const after = await TranscoderDirectory.open(await connection('directory-after'), prefix, 1);
  t.teardown(() => after.close());
  await waitFor('a directory opened after the restart to see the running transcoder', () => (after.ranked('item').some((e) => e.id === 'transcoder-1') ? true : undefined), 30_000, 100);

  const second = await TranscoderHeartbeat.start(await connection('transcoder-2'), prefix, 1, entry('transcoder-2'));
  t.teardown(() => second.stop());
  await waitFor('the directory opened before the restart to see a transcoder started after it', () => (before.ranked('item').some((e) => e.id === 'transcoder-2') ? true : undefined), 30_000, 100);
  t.deepEqual(after.ranked('item').map((e) => e.id).sort(), ['transcoder-1', 'transcoder-2']);
});

test.serial("after a NATS restart lost the live registry's bucket, the publisher's next refresh makes it again and other replicas find the stream", async (t) => {
  const prefix = 'restartlive';
  const publisher = await LiveRegistry.open(await connection('publisher'), prefix, 1);
  const reader = await LiveRegistry.open(await connection('reader'), prefix, 1);
  const target = { roomId: 'room-1', mediaId: 'item-1' };
  const held = { baseUrl: 'http://127.0.0.1:1', replicaId: 'publisher', startedAt: Date.now() };
  await publisher.announce(target, held);
  t.deepEqual(await reader.find(target), held);

  await nats.stop();
  await nats.start();

  // The publisher's refresh (every REGISTRY_REFRESH_MS), once the connection is back.
  await waitFor('the refresh to be written', async () => ((await publisher.announce(target, held).then(() => true, () => undefined)) ? true : undefined), 30_000, 200);
  // The reader's connection comes back on its own schedule: a read sent before it has, times
  // out (CI saw that). What it finds once it is back is the point.
  t.deepEqual(await waitFor('the reader to read the registry again', () => reader.find(target).catch(() => undefined), 30_000, 200), held);
  // A claim on another stream, from a replica that opened the registry before the restart.
  const other = { roomId: 'room-1', mediaId: 'item-2' };
  t.true(await reader.claim(other, { ...held, replicaId: 'reader' }));
  t.is((await publisher.find(other))?.replicaId, 'reader');
});
