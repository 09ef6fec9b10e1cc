import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { RoomServiceClient } from 'livekit-server-sdk';
import { waitFor } from '../fixtures/deadline.js';
import { watchParty } from '../deploy/watch-party.js';
import { screenShare } from '../deploy/screen-share.js';
import { composeDependencyImages, startComposeStack } from './compose-stack.js';
import { BED_PASSWORD } from '../gateways/bed.js';
import { createRootIn, logsOf, podman, requireImages } from './podman.js';


// deploy/compose.yaml as a self-hoster starts it: the secrets script, `compose up`, the root
// account from the CLI inside the gateway, then a watch party through the published port, and a
// screen share from Chromium through the stack's LiveKit.
test('the Compose stack starts every service and carries a watch party and a screen share', async (t) => {
  t.timeout(10 * 60_000);
  await requireImages(...(await composeDependencyImages()));
  const stack = await startComposeStack();
  t.teardown(() => stack.down());
  t.log(`compose up to a ready gateway: ${(stack.readyMs / 1000).toFixed(1)} s`);

  // Every pool passes the image's own health check (podman runs it on request: no systemd here).
  for (const service of ['gateway', 'actors', 'worker']) {
    await waitFor(`${service} to pass its health check`, async () => ((await podman(['healthcheck', 'run', stack.container(service)])).code === 0 ? true : undefined), 120_000, 500).catch(
      async (err: Error) => {
        throw new Error(`${err.message}\n${await logsOf(stack.container(service))}`);
      },
    );
  }
  const migrate = await podman(['inspect', '--format', '{{.State.Status}} {{.State.ExitCode}}', stack.container('migrate')]);
  t.is(migrate.stdout.trim(), 'exited 0', await logsOf(stack.container('migrate')));

  const created = await createRootIn(stack.container('gateway'), 'composehost');
  t.is(created.code, 0, created.stderr);
  const party = await watchParty({ url: stack.url, username: 'composehost', password: BED_PASSWORD });
  t.is(party.chatSeenByGuest, 'hello from composehost');
  t.true(party.playingSeenByGuest);

  // The Temporal Web UI the README points reviewers at.
  const ui = await fetch(`${stack.temporalUiUrl}/`);
  t.is(ui.status, 200);

  // LiveKit answers on its published port and takes the key pair svc signs with (the default
  // key name and the secret file make-secrets.sh wrote).
  await waitFor('LiveKit to pass its health check', async () => ((await podman(['healthcheck', 'run', stack.container('livekit')])).code === 0 ? true : undefined), 60_000, 500);
  t.is(await (await fetch(stack.sfuUrl)).text(), 'OK');
  const secret = (await readFile(join(stack.secretsDir, 'sfu_api_secret'), 'utf8')).trim();
  const rooms = new RoomServiceClient(stack.sfuUrl, 'svc', secret);
  await rooms.createRoom({ name: 'compose-check', emptyTimeout: 10 });
  t.true((await rooms.listRooms()).some((room) => room.name === 'compose-check'));

  // A share seen by a guest: media through the published UDP port at the announced address.
  const share = await screenShare({ url: stack.url, username: 'composehost', password: BED_PASSWORD });
  t.is(share.stageSeenByGuest, 'composehost is sharing their screen');
  t.true(share.guestPicture.width > 0 && share.guestPicture.height > 0, JSON.stringify(share.guestPicture));
});
