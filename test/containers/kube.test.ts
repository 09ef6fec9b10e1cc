import test from 'ava';
import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../fixtures/deadline.js';
import { freePort, freshDatabase, testStack } from '../harness/stack.js';
import { watchParty } from '../deploy/watch-party.js';
import { screenShare } from '../deploy/screen-share.js';
import { renderKube } from './kube-render.js';
import { BED_PASSWORD } from '../gateways/bed.js';
import { createRootIn, logsOf, podman, podmanOk, requireImages, secretFiles, SVC_IMAGE, waitReady } from './podman.js';


// deploy/k8s/svc.yaml played by podman, every role in its own pod, then a watch party through it,
// and a screen share from Chromium through the SFU the ConfigMap names (the test stack's LiveKit).
test('the Kubernetes manifests run every role and carry a watch party and a screen share', async (t) => {
  t.timeout(8 * 60_000);
  await requireImages();
  const stack = testStack();
  const databaseUrl = await freshDatabase('kube_play');
  const secretsDir = await secretFiles(databaseUrl, stack.sfu.apiSecret);
  const tag = randomUUID().slice(0, 8);
  const ports = {
    http: await freePort(),
    grpc: await freePort(),
    rtmp: await freePort(),
    metrics: { gateway: await freePort(), actors: await freePort(), worker: await freePort(), transcoder: await freePort() },
  };
  const rendered = renderKube({
    image: SVC_IMAGE,
    redisUrl: stack.redisUrl,
    natsUrl: stack.natsUrl,
    temporalAddress: stack.temporalAddress,
    sfu: stack.sfu,
    secretsDir,
    ports,
    isolation: { natsSubjectPrefix: `kube${tag}`, temporalTaskQueue: `kube-${tag}` },
  });
  const dir = await mkdtemp(join(tmpdir(), 'svc-kube-'));
  const files = { migrate: join(dir, 'migrate.yaml'), pools: join(dir, 'pools.yaml') };
  await writeFile(files.migrate, rendered.migrate);
  await writeFile(files.pools, rendered.pools);
  t.teardown(async () => {
    await podman(['kube', 'down', files.pools]);
    await podman(['kube', 'down', files.migrate]);
  });

  // The Job first: the pools would wait for the schema anyway, but a release migrates first.
  await podmanOk(['kube', 'play', files.migrate]);
  const migrated = await waitFor(
    'the migration pod to finish',
    async () => {
      const state = (await podmanOk(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', 'svc-migrate-migrate'])).trim();
      return state.startsWith('exited') ? state : undefined;
    },
    120_000,
    500,
  );
  t.is(migrated, 'exited 0', await logsOf('svc-migrate-migrate'));

  await podmanOk(['kube', 'play', files.pools]);
  const containers = (await podmanOk(['ps', '--format', '{{.Names}}'])).split('\n').filter((name) => /^svc-(gateway|actors|worker|transcoder)-pod/.test(name));
  const diagnostics = async () => (await Promise.all(containers.map((name) => logsOf(name)))).join('\n');
  for (const [role, port] of Object.entries(ports.metrics)) {
    await waitReady(`http://127.0.0.1:${port}`, `the ${role} pod to be ready`, 180_000, diagnostics);
  }

  const gateway = containers.find((name) => name.startsWith('svc-gateway-pod'));
  t.truthy(gateway, containers.join(', '));
  const created = await createRootIn(gateway!, 'kubehost');
  t.is(created.code, 0, created.stderr);

  const party = await watchParty({ url: `http://127.0.0.1:${ports.http}`, username: 'kubehost', password: BED_PASSWORD });
  t.is(party.chatSeenByGuest, 'hello from kubehost');
  t.true(party.playingSeenByGuest);

  const share = await screenShare({ url: `http://127.0.0.1:${ports.http}`, username: 'kubehost', password: BED_PASSWORD });
  t.is(share.stageSeenByGuest, 'kubehost is sharing their screen');
  t.true(share.guestPicture.width > 0 && share.guestPicture.height > 0, JSON.stringify(share.guestPicture));
});
