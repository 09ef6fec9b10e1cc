/**
 * The SFU as the harness runs it: the stack's LiveKit node answers svc's sfu.* settings, and a
 * private two-node cluster places rooms on both nodes and, when one is SIGKILLed, opens its rooms
 * on the other (docs/2026-11-29-sfu-deployment.md).
 */
import test from 'ava';
import { randomBytes } from 'node:crypto';
import { RoomServiceClient } from 'livekit-server-sdk';
import { waitFor } from '../fixtures/deadline.js';
import { joinSignal, joinToken, startSfuCluster, type SfuCluster, type SfuNode } from '../fixtures/livekit.js';
import { testStack } from './stack.js';

const roomName = (label: string): string => `${label}-${randomBytes(4).toString('hex')}`;

test("the stack's LiveKit answers, accepts the API key in stack.env and refuses another", async (t) => {
  const sfu = testStack().sfu;
  t.is(new URL(sfu.publicUrl).port, new URL(sfu.url).port, 'browsers signal on the API port');
  const health = await fetch(sfu.url);
  t.is(await health.text(), 'OK');

  const rooms = new RoomServiceClient(sfu.url, sfu.apiKey, sfu.apiSecret);
  const name = roomName('harness');
  t.teardown(() => rooms.deleteRoom(name).catch(() => undefined));
  await rooms.createRoom({ name, emptyTimeout: 60 });
  t.true((await rooms.listRooms([name])).some((room) => room.name === name));

  const session = await joinSignal(sfu.publicUrl, await joinToken(sfu, name, 'harness-member'));
  t.teardown(() => session.close());
  const members = await waitFor('the member in the room', async () => {
    const identities = (await rooms.listParticipants(name)).map((participant) => participant.identity);
    return identities.includes('harness-member') ? identities : undefined;
  });
  t.deepEqual(members, ['harness-member']);

  const forged = new RoomServiceClient(sfu.url, sfu.apiKey, randomBytes(24).toString('hex'));
  const refused = await t.throwsAsync(forged.listRooms());
  t.is((refused as { status?: number } | undefined)?.status, 401);
});

/** Creates rooms through `via` until LiveKit has placed one on each of `on`; returns one room per node. */
async function placeRoomsOn(cluster: SfuCluster, via: SfuNode, on: SfuNode[]): Promise<Map<SfuNode, string>> {
  const rooms = new RoomServiceClient(via.url, cluster.apiKey, cluster.apiSecret);
  const placed = new Map<SfuNode, string>();
  // Placement follows each node's room count, which a node refreshes in Redis every 2 s: the
  // rooms of one burst go to one node, the next ones to the other.
  return waitFor(
    `rooms on each of ${on.length} nodes`,
    async () => {
      const name = roomName('placed');
      await rooms.createRoom({ name, emptyTimeout: 120 });
      const node = await cluster.roomNode(name);
      if (node !== undefined && on.includes(node) && !placed.has(node)) placed.set(node, name);
      return placed.size === on.length ? placed : undefined;
    },
    20_000,
    250,
  );
}

test('a two-node LiveKit cluster places rooms on both, and opens a SIGKILLed node\'s room on the other', async (t) => {
  const cluster = await startSfuCluster({ nodes: 2 });
  t.teardown(() => cluster.destroy());
  const [first, second] = cluster.nodes as [SfuNode, SfuNode];
  t.not(await first.nodeId(), await second.nodeId());

  const placed = await placeRoomsOn(cluster, first, [first, second]);
  const victim = second;
  const survivor = first;
  const orphan = placed.get(victim) as string;

  const killedAt = Date.now();
  await victim.kill();
  // A client whose node died reconnects to an address that reaches a live node (here the
  // survivor's own), giving up an attempt that has not answered within a second. LiveKit moves
  // the room once the dead node's stats are older than 5 s.
  const token = await joinToken(cluster, orphan, 'rejoined');
  const session = await waitFor('the orphaned room to open on the surviving node', () => joinSignal(survivor.publicUrl, token, { timeoutMs: 1_000 }), 20_000, 100);
  t.teardown(() => session.close());
  t.log(`a room of the SIGKILLed node was joined on the other ${Date.now() - killedAt} ms after the kill`);
  t.is(await cluster.roomNode(orphan), survivor);
  const rooms = new RoomServiceClient(survivor.url, cluster.apiKey, cluster.apiSecret);
  const members = await waitFor('the rejoined member listed', async () => {
    const identities = (await rooms.listParticipants(orphan)).map((participant) => participant.identity);
    return identities.length > 0 ? identities : undefined;
  });
  t.deepEqual(members, ['rejoined']);

  // Started again (a new node id on the same ports), it takes new rooms: the survivor has more.
  const killedId = await victim.nodeId();
  await victim.start();
  t.not(await victim.nodeId(), killedId);
  const again = await placeRoomsOn(cluster, survivor, [victim]);
  t.is(await cluster.roomNode(again.get(victim) as string), victim);
});
