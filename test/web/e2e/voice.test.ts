/**
 * Voice chat in Chromium against the whole service and a real coturn: two members join the
 * room's call from the Voice panel (fake microphones), the service hands out TURN credentials
 * for the coturn started here, the call is forced through the relay (localStorage
 * `svc.voice.iceTransportPolicy` = `relay`, see web/src/voice/ice-policy.ts), and each side
 * receives the other's audio over a relay candidate pair. Mute shows on the other side;
 * leaving ends the call on both.
 */
import test from 'ava';
import type { Page } from 'playwright-core';
import type { Member } from '../../gateways/bed.js';
import { startCoturn, type Coturn } from '../../fixtures/coturn.js';
import { checkAtBothWidths, evaluateQuietly, signInPage, startWebBed, waitForPage, type Person, type WebBed } from './browser.js';

const CALL_MS = 30_000;
let bed: WebBed;
let coturn: Coturn;

test.before(async () => {
  coturn = await startCoturn({ secret: 'e2e-voice-secret' });
  bed = await startWebBed('web_voice', { fakeMedia: true, env: { SVC_TURN_URLS: coturn.url, SVC_TURN_SHARED_SECRET: coturn.secret } });
});
test.after.always(async () => {
  await bed?.close();
  await coturn?.stop();
});

/**
 * Before any page script: force relay-only ICE, and keep every RTCPeerConnection the page
 * makes where the test can read its stats (the client exposes none). With
 * `window.__firstGathersNothing` set, the page's first connection gets no ICE servers: relay-only,
 * it never has a candidate, as when its relay cannot be reached.
 */
const INIT_SCRIPT = `
  try { localStorage.setItem('svc.voice.iceTransportPolicy', 'relay'); } catch {}
  (() => {
    const Native = window.RTCPeerConnection;
    window.__voicePeers = [];
    window.RTCPeerConnection = class extends Native {
      constructor(config, ...rest) {
        const starved = window.__firstGathersNothing && window.__voicePeers.length === 0;
        super(starved ? { ...config, iceServers: [] } : config, ...rest);
        window.__voicePeers.push(this);
      }
    };
  })();
`;
const FIRST_GATHERS_NOTHING = 'window.__firstGathersNothing = true;';

/** Audio bytes received and the types of the selected candidate pair, on the page's open connections. */
const CALL_STATS = `(async () => {
  const open = window.__voicePeers.filter((pc) => pc.connectionState !== 'closed');
  const out = [];
  for (const pc of open) {
    const stats = await pc.getStats();
    let bytes = 0, pair = null, relayIn = false;
    const byId = new Map();
    stats.forEach((s) => byId.set(s.id, s));
    stats.forEach((s) => {
      if (s.type === 'inbound-rtp' && s.kind === 'audio') bytes += s.bytesReceived;
      if (s.type === 'transport' && s.selectedCandidatePairId) pair = byId.get(s.selectedCandidatePairId);
    });
    const local = pair && byId.get(pair.localCandidateId);
    const remote = pair && byId.get(pair.remoteCandidateId);
    out.push({ state: pc.connectionState, signaling: pc.signalingState, gathering: pc.iceGatheringState, policy: pc.getConfiguration().iceTransportPolicy, bytes, local: local ? local.candidateType : null, remote: remote ? remote.candidateType : null });
  }
  return out;
})()`;

interface CallStats {
  state: string;
  signaling: string;
  gathering: string;
  policy: string;
  bytes: number;
  local: string | null;
  remote: string | null;
}

/** The test's pages, for a failure's account of every side of the call. */
const opened: Page[] = [];

async function openRoom(member: Member, roomId: string, prepare?: (page: Page) => Promise<void>): Promise<Person> {
  const person = await bed.person();
  opened.push(person.page);
  await person.context.addInitScript({ content: INIT_SCRIPT });
  await prepare?.(person.page);
  await signInPage(person.page, member.username);
  await person.page.goto(`/rooms/${roomId}`);
  await person.page.getByRole('tab', { name: 'Voice' }).click();
  return person;
}

const participants = (page: Page) => page.getByRole('list', { name: 'In the voice call' }).getByRole('listitem');
const stats = async (page: Page): Promise<CallStats[]> => (await evaluateQuietly(page, CALL_STATS)) as CallStats[];

/** Waits until the page has one connected peer receiving audio over a relay pair; answers its stats. */
async function relayedAudio(page: Page, moreThan = 0): Promise<CallStats> {
  const deadline = Date.now() + CALL_MS;
  while (Date.now() < deadline) {
    const call = (await stats(page)).find((s) => s.state === 'connected' && s.bytes > moreThan && s.local === 'relay');
    if (call) return call;
    await page.waitForTimeout(250);
  }
  const sides = await Promise.all(
    opened.map(async (other, index) => {
      const panel = await other.locator('#panel-voice').innerText().catch((error: unknown) => String(error));
      return `page ${index + 1}${other === page ? ' (this one)' : ''}: ${JSON.stringify(await stats(other).catch(() => []))}\n${panel}`;
    }),
  );
  throw new Error(`no relayed audio within ${CALL_MS} ms\n${sides.join('\n')}\n${await coturn.log().then((log) => log.slice(-3000))}`);
}

/**
 * Delivers this page's `voice.join` answer only after the first `voice.signal` addressed to it:
 * the order a busy service can produce, since the answer and the room's events travel apart.
 */
async function answerJoinAfterFirstSignal(page: Page): Promise<void> {
  await page.routeWebSocket(/\/realtime(\?|$)/, (ws) => {
    const server = ws.connectToServer();
    let joinId: string | null = null;
    let heldAnswer: string | null = null;
    let released = false;
    ws.onMessage((message) => {
      if (typeof message === 'string') {
        const sent = JSON.parse(message) as { type?: string; id?: string; command?: { kind?: string } };
        if (sent.type === 'command' && sent.command?.kind === 'voice.join') joinId = sent.id ?? null;
      }
      server.send(message);
    });
    server.onMessage((message) => {
      if (typeof message === 'string' && !released) {
        const received = JSON.parse(message) as { type?: string; id?: string; event?: { type?: string } };
        if (received.type === 'ok' && joinId !== null && received.id === joinId) {
          heldAnswer = message;
          return;
        }
        if (heldAnswer !== null && received.type === 'event' && received.event?.type === 'voice.signal') {
          ws.send(message);
          released = true;
          ws.send(heldAnswer);
          return;
        }
      }
      ws.send(message);
    });
  });
}

test.serial('two members talk through the TURN relay; mute shows on the other side; leaving ends the call on both', async (t) => {
  const [alice, bob] = await Promise.all([bed.signUp('alice'), bed.signUp('bob')]);
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Voice night' }, alice.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, bob.token);
  const a = await openRoom(alice, roomId);
  const b = await openRoom(bob, roomId);

  await a.page.getByRole('button', { name: 'Join voice' }).click();
  await participants(b.page).filter({ hasText: alice.username }).waitFor();
  await b.page.getByRole('button', { name: 'Join voice' }).click();
  await participants(a.page).filter({ hasText: bob.username }).waitFor();
  t.is(await participants(a.page).count(), 2);
  t.deepEqual(await checkAtBothWidths(a.page, 'room-voice'), []);

  // Each side receives the other's audio, over a relay (TURN) candidate pair, and keeps receiving.
  for (const page of [a.page, b.page]) {
    const first = await relayedAudio(page);
    t.is(first.policy, 'relay');
    const later = await relayedAudio(page, first.bytes);
    t.true(later.bytes > first.bytes, 'audio keeps arriving');
  }

  // Who is speaking, from the audio levels: Chromium's fake microphone beeps every second.
  await participants(b.page).filter({ hasText: alice.username }).filter({ hasText: 'speaking' }).waitFor({ timeout: CALL_MS });
  await participants(a.page).filter({ hasText: bob.username }).filter({ hasText: 'speaking' }).waitFor({ timeout: CALL_MS });

  // Mute shows on the other side (and is announced by the button's pressed state here).
  await a.page.getByRole('button', { name: 'Mute microphone' }).click();
  await participants(b.page).filter({ hasText: alice.username }).filter({ hasText: 'muted' }).waitFor();
  t.is(await a.page.getByRole('button', { name: 'Unmute microphone' }).getAttribute('aria-pressed'), 'true');

  // Alice leaves: her connections close, and Bob's call to her ends.
  await a.page.getByRole('button', { name: 'Leave voice' }).click();
  await participants(b.page).filter({ hasText: alice.username }).waitFor({ state: 'detached' });
  await waitForPage(a.page, `window.__voicePeers.every((pc) => pc.connectionState === 'closed')`, CALL_MS);
  await waitForPage(b.page, `window.__voicePeers.every((pc) => pc.connectionState === 'closed')`, CALL_MS);
  await b.page.getByRole('button', { name: 'Leave voice' }).click();
  await a.page.getByText('Nobody is in the voice call.').waitFor();
  await b.page.getByText('Nobody is in the voice call.').waitFor();
  t.deepEqual([...a.problems, ...b.problems], []);
});

/**
 * Two new members in a new room, the first by user id (the impolite side) in the call before the
 * second (the polite side, its page made ready by `prepareSecond`) joins.
 */
async function politeJoinsImpolite(names: [string, string], roomName: string, prepareSecond: (page: Page) => Promise<void>): Promise<[Person, Person]> {
  const pair = await Promise.all(names.map((name) => bed.signUp(name)));
  const [first, second] = pair.sort((x, y) => (x.userId < y.userId ? -1 : 1)) as [Member, Member];
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: roomName }, first.token);
  const roomId = created.body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, second.token);
  const a = await openRoom(first, roomId);
  const b = await openRoom(second, roomId, prepareSecond);
  await a.page.getByRole('button', { name: 'Join voice' }).click();
  await participants(b.page).filter({ hasText: first.username }).waitFor();
  await b.page.getByRole('button', { name: 'Join voice' }).click();
  return [a, b];
}

test.serial('an offer that reaches a member before the answer to its own join still connects the call', async (t) => {
  // The first in the call offers to the second; as the impolite side it would ignore the second's
  // own offer, so a lost first offer would leave both waiting for ever.
  const [a, b] = await politeJoinsImpolite(['carol', 'dave'], 'Late answer', answerJoinAfterFirstSignal);
  for (const page of [a.page, b.page]) t.is((await relayedAudio(page)).policy, 'relay');
  t.deepEqual([...a.problems, ...b.problems], []);
});

test.serial('a connection that does not come up is replaced on both sides, and the call connects', async (t) => {
  // The first watches the connection; the second's own connection is the one that cannot gather,
  // so the replacement has to reach it from the other side.
  const [a, b] = await politeJoinsImpolite(['erin', 'frank'], 'Second try', async (page) => {
    await page.addInitScript({ content: FIRST_GATHERS_NOTHING });
  });
  for (const page of [a.page, b.page]) t.is((await relayedAudio(page)).policy, 'relay');
  for (const page of [a.page, b.page]) {
    t.deepEqual(await evaluateQuietly(page, `window.__voicePeers.map((pc) => pc.connectionState)`), ['closed', 'connected'], 'the first connection was replaced');
  }
  t.deepEqual([...a.problems, ...b.problems], []);
});
