import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../fixtures/deadline.js';
import { freePort, freshDatabase, testStack } from '../harness/stack.js';
import { connect } from 'nats';
import { ROOM_ACTOR_TYPE } from '../../actors/index.js';
import { hostsBucketName, ownersBucketName } from '../../actors/runtime/names.js';
import { watchParty } from '../deploy/watch-party.js';
import { screenShare } from '../deploy/screen-share.js';
import { podName, renderKube } from './kube-render.js';
import { BED_PASSWORD } from '../gateways/bed.js';
import { createRootIn, logsOf, podman, podmanOk, requireImages, secretFiles, SVC_IMAGE, waitReady } from './podman.js';


// deploy/k8s/svc.yaml played by podman, every role in its own pod, on the three-node NATS of
// dependencies.yaml, then a watch party through it, and a screen share from Chromium through the
// SFU the ConfigMap names (the test stack's LiveKit); then the NATS pod leading the rooms'
// ownership bucket is killed, and once NATS has elected another leader a second watch party
// opens its room.
test('the Kubernetes manifests run every role on a three-node NATS and carry a watch party and a screen share', async (t) => {
  t.timeout(8 * 60_000);
  await requireImages();
  const stack = testStack();
  const databaseUrl = await freshDatabase('kube_play');
  const secretsDir = await secretFiles(databaseUrl, stack.sfu.apiSecret);
  const tag = randomUUID().slice(0, 8);
  const nats = [];
  for (let k = 0; k < 3; k++) nats.push({ client: await freePort(), cluster: await freePort(), monitor: await freePort() });
  const ports = {
    http: await freePort(),
    grpc: await freePort(),
    rtmp: await freePort(),
    metrics: { gateway: await freePort(), actors: await freePort(), worker: await freePort(), transcoder: await freePort() },
  };
  const rendered = renderKube({
    image: SVC_IMAGE,
    redisUrl: stack.redisUrl,
    nats,
    temporalAddress: stack.temporalAddress,
    sfu: stack.sfu,
    secretsDir,
    ports,
    isolation: { natsSubjectPrefix: `kube${tag}`, temporalTaskQueue: `kube-${tag}` },
    instance: tag,
  });
  const dir = await mkdtemp(join(tmpdir(), 'svc-kube-'));
  const files = { nats: join(dir, 'nats.yaml'), migrate: join(dir, 'migrate.yaml'), pools: join(dir, 'pools.yaml') };
  await writeFile(files.nats, rendered.nats);
  await writeFile(files.migrate, rendered.migrate);
  await writeFile(files.pools, rendered.pools);
  t.teardown(async () => {
    await podman(['kube', 'down', files.pools]);
    await podman(['kube', 'down', files.migrate]);
    await podman(['kube', 'down', files.nats]);
  });

  await podmanOk(['kube', 'play', files.nats]);
  const natsDiagnostics = async () => (await Promise.all([0, 1, 2].map((k) => logsOf(`${podName('nats', k, tag)}-nats`)))).join('\n');
  for (const node of nats) {
    await waitFor('a NATS pod to be healthy', async () => ((await fetch(`http://127.0.0.1:${node.monitor}/healthz`).catch(() => undefined))?.ok ? true : undefined), 60_000, 100).catch(
      async (err: Error) => {
        throw new Error(`${err.message}\n${await natsDiagnostics()}`);
      },
    );
  }

  // The Job first: the pools would wait for the schema anyway, but a release migrates first.
  await podmanOk(['kube', 'play', files.migrate]);
  const migrated = await waitFor(
    'the migration pod to finish',
    async () => {
      const state = (await podmanOk(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', `${podName('svc-migrate', undefined, tag)}-migrate`])).trim();
      return state.startsWith('exited') ? state : undefined;
    },
    120_000,
    500,
  );
  t.is(migrated, 'exited 0', await logsOf(`${podName('svc-migrate', undefined, tag)}-migrate`));

  await podmanOk(['kube', 'play', files.pools]);
  const containers = (await podmanOk(['ps', '--format', '{{.Names}}'])).split('\n').filter((name) => new RegExp(`^svc-(gateway|actors|worker|transcoder)-${tag}-pod`).test(name));
  const diagnostics = async () => (await Promise.all(containers.map((name) => logsOf(name)))).join('\n');
  for (const [role, port] of Object.entries(ports.metrics)) {
    await waitReady(`http://127.0.0.1:${port}`, `the ${role} pod to be ready`, 180_000, diagnostics);
  }

  const gateway = containers.find((name) => name.startsWith(`${podName('svc-gateway', undefined, tag)}-pod`));
  t.truthy(gateway, containers.join(', '));
  const created = await createRootIn(gateway!, 'kubehost');
  t.is(created.code, 0, created.stderr);

  const party = await watchParty({ url: `http://127.0.0.1:${ports.http}`, username: 'kubehost', password: BED_PASSWORD });
  t.is(party.chatSeenByGuest, 'hello from kubehost');
  t.true(party.playingSeenByGuest);

  const share = await screenShare({ url: `http://127.0.0.1:${ports.http}`, username: 'kubehost', password: BED_PASSWORD });
  t.is(share.stageSeenByGuest, 'kubehost is sharing their screen');
  t.true(share.guestPicture.width > 0 && share.guestPicture.height > 0, JSON.stringify(share.guestPicture));

  // The rooms' ownership bucket has three copies; its leader's pod dies and rooms still open.
  const nc = await connect({ servers: nats.map((node) => `nats://127.0.0.1:${node.client}`) });
  t.teardown(() => nc.close());
  // Made before the kill: making one asks JetStream, which does not answer during an election.
  const jsm = await nc.jetstreamManager();
  const owners = await jsm.streams.info(`KV_${ownersBucketName(`kube${tag}`, ROOM_ACTOR_TYPE)}`);
  t.is(owners.config.num_replicas, 3, 'svc-config asks for three copies of each bucket');
  const leader = [0, 1, 2].find((k) => owners.cluster?.leader === podName('nats', k, tag));
  if (leader === undefined) throw new Error(`the owners bucket's leader is not one of the pods: ${owners.cluster?.leader}`);
  await podmanOk(['kill', `${podName('nats', leader, tag)}-nats`]);
  // NATS elects a new leader when a follower's election timer fires (4-9 s in nats-server
  // 2.12); until every bucket of this deployment has one, rooms cannot all be activated or
  // hosts renew their leases (docs/2026-11-30-nats-topologies.md).
  const led = async (): Promise<boolean> => {
    const streams = (await jsm.streams.list().next()).filter((info) => info.config.name.startsWith(`KV_kube${tag}_`));
    return streams.length > 0 && streams.every((info) => info.cluster?.leader !== undefined && info.cluster.leader !== podName('nats', leader, tag));
  };
  await waitFor('every bucket with a new leader', async () => ((await led().catch(() => false)) ? true : undefined), 60_000, 200);
  // An election longer than the lease (1.5 s) costs the actor host its liveness: it cannot
  // heartbeat without a leader, so it leaves the pool and stops its rooms, and rejoins once its
  // liveness is restored (actors/runtime/liveness.ts). Rooms open again from its first
  // heartbeat after the election; before it, creating one finds no host (CI saw that).
  const electedAt = Date.now();
  // Short tries: one of this test's own reads sent before its connection moved off the killed
  // node waits out JetStream's 5 s timeout otherwise, and that is not the host's delay.
  const hosts = await nc.jetstream({ timeout: 1_000 }).views.kv(hostsBucketName(`kube${tag}`), { bindOnly: true });
  const beatSinceElection = async (): Promise<true | undefined> => {
    for await (const key of await hosts.keys()) {
      const entry = await hosts.get(key);
      if (entry?.operation === 'PUT' && entry.created.getTime() > electedAt) return true;
    }
    return undefined;
  };
  await waitFor('the actor host to heartbeat after the election', () => beatSinceElection().catch(() => undefined), 60_000, 200);
  t.log(`the actor host's first heartbeat came ${Date.now() - electedAt} ms after the new leaders`);
  const again = await watchParty({ url: `http://127.0.0.1:${ports.http}`, username: 'kubehost', password: BED_PASSWORD });
  t.is(again.chatSeenByGuest, 'hello from kubehost', await natsDiagnostics());
  t.true(again.playingSeenByGuest);
});
