/**
 * An SFU node's loss, in Chromium against the whole service and a two-node LiveKit cluster of
 * the test's own (test/fixtures/livekit.ts; docs/2026-11-29-sfu-deployment.md): two members talk
 * in a call whose LiveKit room lives on the second node; that node is SIGKILLed; both pages say
 * the call dropped (lost its server, or LiveKit reconnecting), fetch new grants, join again through the first node (where LiveKit
 * opens the room once it gives the dead node up) and hear each other again, with nothing clicked;
 * the camera that was on goes out again.
 * The time from the kill to both hearing again is logged (the figure: within 5 s).
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import { waitFor } from '../../fixtures/deadline.js';
import { startSfuCluster, type SfuCluster, type SfuNode } from '../../fixtures/livekit.js';
import { sfuRoomName } from '../../../sfu/index.js';
import { startWebBed, waitForPage, type Person, type WebBed } from './browser.js';
import { openRoom, RECORD_PEERS, roomWith } from './call-helpers.js';

const CALL_MS = 45_000;
/** Each connection's states with the local time they were first seen, in `window.__pcLog`. */
const PC_LOG = `window.__pcLog = []; setInterval(() => (window.__callPeers || []).forEach((pc, i) => { const k = i + ':' + pc.connectionState; if (!pc.__seen?.has(k)) { (pc.__seen ??= new Set()).add(k); window.__pcLog.push([Date.now(), i, pc.connectionState]); } }), 50);`;
/**
 * What each page told its member about the loss, in `window.__notices`: under load a page may get
 * its call back through LiveKit's own reconnection (the "reconnecting" notice) before it gives the
 * room up (the "lost its server" one), and a notice can be on screen for a moment only.
 */
const LOST = 'The call lost its server; joining again…';
const RECONNECTING = 'The call’s connection dropped; reconnecting…';
const NOTICES = `window.__notices = []; new MutationObserver(() => { const text = document.body ? document.body.textContent : ''; for (const notice of ${JSON.stringify([LOST, RECONNECTING])}) if (text.includes(notice) && !window.__notices.includes(notice)) window.__notices.push(notice); }).observe(document, { subtree: true, childList: true, characterData: true });`;
let cluster: SfuCluster;
let bed: WebBed;

test.before(async () => {
  cluster = await startSfuCluster({ nodes: 2 });
  const [first] = cluster.nodes as [SfuNode, SfuNode];
  // The service and the browsers reach the cluster through the first node (in production, a load
  // balancer in front of every node): signalling relays to whichever node holds a room.
  bed = await startWebBed('web_call_failover', {
    fakeMedia: true,
    env: { SVC_SFU_URL: first.url, SVC_SFU_PUBLIC_URL: first.publicUrl, SVC_SFU_API_KEY: cluster.apiKey, SVC_SFU_API_SECRET: cluster.apiSecret },
  });
});
test.after.always(async () => {
  await bed?.close();
  await cluster?.destroy();
});

/** Audio bytes received over connections created after the first `since` of the page (window.__callPeers). */
const audioSince = (since: number) => `(async () => {
  let bytes = 0;
  for (const pc of window.__callPeers.slice(${since}).filter((pc) => pc.connectionState === 'connected')) {
    (await pc.getStats()).forEach((s) => { if (s.type === 'inbound-rtp' && s.kind === 'audio') bytes += s.bytesReceived; });
  }
  return bytes;
})()`;

async function hears(page: Page, since: number, timeoutMs: number): Promise<void> {
  await waitFor('audio received over a connection made after the kill', async () => ((await page.evaluate<number>(audioSince(since))) > 0 ? true : undefined), timeoutMs, 100);
}

test('a killed SFU node: both members are told, join again on the other node by themselves, and hear each other', async (t) => {
  const [first, second] = cluster.nodes as [SfuNode, SfuNode];
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  // A room whose call LiveKit places on the second node: the node can die while the one the
  // service and the browsers talk to lives. Placement follows each node's room count.
  const prefix = bed.config.nats.subject_prefix;
  const roomId = await waitFor(
    'a call placed on the second node',
    async () => {
      const id = await roomWith(bed, 'Failover', alice, [bob]);
      t.is((await bed.call('POST', `/api/rooms/${id}/call`, { part: 'call' }, alice.token)).status, 200);
      return (await cluster.roomNode(sfuRoomName(prefix, id, 'call'))) === second ? id : undefined;
    },
    30_000,
    250,
  );
  const allowHosts = [new URL(first.url).host];
  const people: Person[] = [];
  for (const member of [alice, bob]) {
    const person = await openRoom(bed, member, roomId, RECORD_PEERS + PC_LOG + NOTICES, { allowHosts });
    await person.page.getByRole('tab', { name: 'Voice' }).click();
    await person.page.getByRole('button', { name: 'Join call' }).click({ timeout: CALL_MS });
    await person.page.getByRole('button', { name: 'Leave call' }).waitFor({ timeout: CALL_MS });
    people.push(person);
  }
  // Alice's camera is on: it must come back with the call.
  const [a, b] = people as [Person, Person];
  await a.page.getByRole('button', { name: 'Turn camera on' }).click({ timeout: CALL_MS });
  const alicesPicture = `document.querySelector('.call-tile[data-user-id="${alice.userId}"] video')?.videoWidth > 0`;
  await waitForPage(b.page, alicesPicture, CALL_MS);
  for (const { page } of people) await hears(page, 0, CALL_MS);
  t.is(await cluster.roomNode(sfuRoomName(prefix, roomId, 'call')), second);

  const before = await Promise.all(people.map(({ page }) => page.evaluate<number>('window.__callPeers.length')));
  const killedAt = Date.now();
  await second.kill();
  await Promise.all(people.map(({ page }, i) => hears(page, before[i]!, CALL_MS)));
  for (const { page } of people) {
    const notices = await page.evaluate<string[]>('window.__notices');
    t.true(notices.length > 0, 'the page said the call dropped');
    t.log(`told: ${notices.join(' / ')}`);
  }
  // When each page's connections closed and came back, from the kill (ms): detection, then LiveKit's placement.
  for (const { page } of people) t.log(JSON.stringify(await page.evaluate(`window.__pcLog.map(([at, i, what]) => [at - ${killedAt}, i, what])`)));
  t.log(`both members heard each other again ${Date.now() - killedAt} ms after the node was killed`);
  t.is(await cluster.roomNode(sfuRoomName(prefix, roomId, 'call')), first);
  for (const { page } of people) {
    // Still in the call, with the other member listed; the notice of the lost server is gone.
    await page.getByRole('button', { name: 'Leave call' }).waitFor();
    await page.getByRole('list', { name: 'In the call' }).getByRole('listitem').nth(1).waitFor({ timeout: CALL_MS });
    for (const notice of [LOST, RECONNECTING]) await page.getByText(notice).waitFor({ state: 'hidden', timeout: CALL_MS });
  }
  // Alice's camera went out again by itself, and Bob sees her picture over the new connection.
  await a.page.getByRole('button', { name: 'Turn camera off' }).waitFor({ timeout: CALL_MS });
  await waitForPage(b.page, alicesPicture, CALL_MS);
  t.deepEqual(people.flatMap((person) => person.problems), []);
  await Promise.all(people.map((person) => person.context.close()));
});
