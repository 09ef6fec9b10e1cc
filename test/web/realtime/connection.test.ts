/**
 * The room's realtime connection in the browser (web/src/realtime/connection.ts) against a fake
 * browser: sockets the test opens, answers and kills, a clock it moves, the network going and
 * coming, the tab coming back into view. What a person in a room depends on: the room comes
 * back by itself after a drop, a sleep or a network change, without hammering the server while
 * there is no network, and the status line says what is going on.
 */
import test from 'ava';
import { ApiError } from '../../../web/src/api/errors.js';
import {
  BACK_WINDOW_MS,
  CONNECT_TIMEOUT_MS,
  KEEPALIVE_MS,
  MISSED_PONGS,
  PROBE_TIMEOUT_MS,
  RoomConnection,
  type ConnectionEnvironment,
  type RoomSocket,
} from '../../../web/src/realtime/connection.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSED = 3;

/** A socket the test plays the server of. */
class FakeSocket implements RoomSocket {
  readyState = CONNECTING;
  onmessage: ((message: { data: unknown }) => void) | null = null;
  onclose: ((close: { code: number; reason: string }) => void) | null = null;
  readonly sent: Array<Record<string, unknown>> = [];
  closedByClient = false;

  constructor(readonly protocols: string[]) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(): void {
    this.closedByClient = true;
    this.readyState = CLOSED;
  }

  /** The upgrade succeeded and the room sent its snapshot. */
  admit(seq = 1): void {
    this.readyState = OPEN;
    this.message({ type: 'snapshot', seq, view: {} });
  }

  message(body: Record<string, unknown>): void {
    this.onmessage?.({ data: JSON.stringify(body) });
  }

  /** The server (or the network) closed the socket. */
  drop(code = 1006, reason = ''): void {
    this.readyState = CLOSED;
    this.onclose?.({ code, reason });
  }

  pings(): Array<Record<string, unknown>> {
    return this.sent.filter((message) => message.type === 'ping');
  }

  answerPings(): void {
    for (const ping of this.pings().slice(this.answered)) this.message({ type: 'pong', t0: ping.t0, t1: 0, t2: 0 });
    this.answered = this.pings().length;
  }

  private answered = 0;
}

/** The browser under the connection: a clock moved by hand, sockets, tickets, network and tab. */
class FakeBrowser implements ConnectionEnvironment {
  readonly sockets: FakeSocket[] = [];
  tickets = 0;
  /** What the next ticket requests do: answer, fail as the network does, or never answer. */
  ticketAnswer: 'ticket' | 'network-error' | 'hang' = 'ticket';
  isOnline = true;
  private clock = 1_000_000;
  private timers: Array<{ id: number; at: number; callback: () => void }> = [];
  private nextTimer = 0;
  private listeners: Array<(change: 'online' | 'offline' | 'visible') => void> = [];

  ticket(): Promise<string> {
    this.tickets += 1;
    if (this.ticketAnswer === 'hang') return new Promise(() => undefined);
    if (this.ticketAnswer === 'network-error') {
      return Promise.reject(new ApiError({ requestId: '', status: 0, code: 'unavailable', message: 'cannot reach the server: check your connection' }));
    }
    return Promise.resolve(`t${this.tickets}`);
  }

  openSocket(_path: string, protocols: string[]): RoomSocket {
    const socket = new FakeSocket(protocols);
    this.sockets.push(socket);
    return socket;
  }

  setTimer(callback: () => void, ms: number): number {
    this.nextTimer += 1;
    this.timers.push({ id: this.nextTimer, at: this.clock + ms, callback });
    return this.nextTimer;
  }

  clearTimer(timer: unknown): void {
    this.timers = this.timers.filter((entry) => entry.id !== timer);
  }

  now(): number {
    return this.clock;
  }

  random(): number {
    return 0.5;
  }

  online(): boolean {
    return this.isOnline;
  }

  watch(listener: (change: 'online' | 'offline' | 'visible') => void): () => void {
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((other) => other !== listener);
    };
  }

  /** Fires the browser event, then lets the connection's promises settle. */
  async emit(change: 'online' | 'offline' | 'visible'): Promise<void> {
    if (change !== 'visible') this.isOnline = change === 'online';
    for (const listener of [...this.listeners]) listener(change);
    await settle();
  }

  /** Moves the clock by `ms`, running every timer that falls due, in order, as it goes. */
  async advance(ms: number): Promise<void> {
    const until = this.clock + ms;
    for (;;) {
      const due = this.timers.filter((entry) => entry.at <= until).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((entry) => entry !== due);
      this.clock = due.at;
      due.callback();
      await settle();
    }
    this.clock = until;
  }

  /** A frozen page: timers due in the next `ms` run only once it is over. */
  freezeTimers(ms: number): void {
    const until = this.clock + ms;
    for (const timer of this.timers) timer.at = Math.max(timer.at, until);
  }

  latest(): FakeSocket {
    const socket = this.sockets.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }
}

/** Lets pending promise callbacks (the ticket, then the socket) run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function openRoom(): Promise<{ browser: FakeBrowser; connection: RoomConnection }> {
  const browser = new FakeBrowser();
  const connection = new RoomConnection('room1', { snapshot: () => undefined, event: () => undefined }, browser);
  await connection.open();
  browser.latest().admit(7);
  return { browser, connection };
}

test('a dropped socket reconnects after a short wait and resumes after the last seq it applied; the status says so', async (t) => {
  const browser = new FakeBrowser();
  const connection = new RoomConnection('room1', { snapshot: () => undefined, event: () => undefined }, browser);
  const opening = connection.open();
  t.is(connection.status.value.state, 'connecting');
  await opening;
  const first = browser.latest();
  t.true(first.protocols.includes('ticket.t1'));
  first.admit(7);
  t.deepEqual(connection.status.value, { state: 'open' });
  first.message({ type: 'event', seq: 8, at: 0, event: {} });

  first.drop(1006);
  const status = connection.status.value;
  t.is(status.state, 'reconnecting');
  if (status.state !== 'reconnecting') return;
  t.is(status.attempt, 1);
  t.is(status.problem, undefined, 'an ordinary drop is not called a problem');
  t.true(status.inMs > 0 && status.inMs <= 500, `first retry within half a second, not ${status.inMs}`);

  await browser.advance(status.inMs);
  const second = browser.latest();
  t.not(second, first);
  t.true(second.protocols.includes('resume.8'), `resumes after seq 8: ${second.protocols.join(' ')}`);
  second.admit(8);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('a close that ends the session or membership ends the connection: no retry', async (t) => {
  const { browser, connection } = await openRoom();
  browser.latest().drop(4403, 'you were removed from the room');
  t.deepEqual(connection.status.value, { state: 'ended', code: 4403, reason: 'you were removed from the room' });
  await browser.advance(10 * 60_000);
  t.is(browser.sockets.length, 1);
  t.is(browser.tickets, 1);
});

test('while the browser is offline nothing is retried; going online reconnects at once', async (t) => {
  const { browser, connection } = await openRoom();
  browser.isOnline = false;
  browser.latest().drop(1006);
  t.deepEqual(connection.status.value, { state: 'offline', attempt: 1 });

  await browser.advance(10 * 60_000);
  t.is(browser.tickets, 1, 'no ticket was asked for while offline');
  t.is(browser.sockets.length, 1, 'no socket was opened while offline');

  await browser.emit('online');
  t.is(browser.tickets, 2, 'a ticket as soon as the network is back');
  t.is(browser.sockets.length, 2);
  browser.latest().admit(7);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('a retry that finds no network waits for it instead of spinning', async (t) => {
  const { browser, connection } = await openRoom();
  browser.latest().drop(1006);
  // The network went away without the browser noticing yet: the ticket request fails.
  browser.ticketAnswer = 'network-error';
  browser.isOnline = false;
  await browser.advance(60_000);
  t.deepEqual(connection.status.value, { state: 'offline', attempt: 2 });
  const asked = browser.tickets;
  await browser.advance(10 * 60_000);
  t.is(browser.tickets, asked, 'no more requests while offline');

  browser.ticketAnswer = 'ticket';
  await browser.emit('online');
  browser.latest().admit(7);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('going offline while a retry is scheduled cancels it until the network is back', async (t) => {
  const { browser, connection } = await openRoom();
  browser.latest().drop(1006);
  t.is(connection.status.value.state, 'reconnecting');
  await browser.emit('offline');
  t.is(connection.status.value.state, 'offline');
  await browser.advance(60_000);
  t.is(browser.sockets.length, 1);
  await browser.emit('online');
  t.is(browser.sockets.length, 2);
});

test('a tab back in view reconnects at once instead of waiting out a long backoff', async (t) => {
  const { browser, connection } = await openRoom();
  browser.ticketAnswer = 'network-error';
  browser.latest().drop(1006);
  // A few failed attempts: the next one is tens of seconds away.
  for (let i = 0; i < 5; i++) {
    const status = connection.status.value;
    if (status.state === 'reconnecting') await browser.advance(status.inMs);
  }
  const status = connection.status.value;
  t.is(status.state, 'reconnecting');
  if (status.state !== 'reconnecting') return;
  t.true(status.inMs >= 8_000, `a long wait by now: ${status.inMs}`);
  t.is(status.problem?.kind, 'unreachable');

  browser.ticketAnswer = 'ticket';
  const asked = browser.tickets;
  await browser.emit('visible');
  t.is(browser.tickets, asked + 1, 'asked for a ticket on coming back into view');
  browser.latest().admit(7);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('a tab back in view after a stall probes its socket, and reconnects at once when nothing answers', async (t) => {
  const { browser, connection } = await openRoom();
  const stalled = browser.latest();
  await browser.emit('visible');
  t.is(stalled.pings().length, 1, 'one ping at once');
  await browser.advance(PROBE_TIMEOUT_MS);
  t.true(stalled.closedByClient, 'the silent socket was given up');
  t.deepEqual(connection.status.value, { state: 'connecting', cause: 'page_back' });
  t.not(browser.latest(), stalled, 'a new socket at once, not after the backoff');
  t.true(browser.latest().protocols.includes('resume.7'));
  browser.latest().admit(8);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('a socket that died while the page was away reconnects the moment it is back, not after the backoff, and says why', async (t) => {
  const { browser, connection } = await openRoom();
  const old = browser.latest();
  // A phone unlocked: the page is shown, and the close the OS made while it slept arrives.
  await browser.emit('visible');
  old.drop(1006);
  t.deepEqual(connection.status.value, { state: 'connecting', cause: 'page_back' });
  await browser.advance(0);
  t.is(browser.sockets.length, 2, 'opened without waiting for a timer');
  t.true(browser.latest().protocols.includes('resume.7'));
  browser.latest().admit(9);
  t.deepEqual(connection.status.value, { state: 'open' });

  // Long after coming back, a drop is an ordinary one: the backoff applies again.
  await browser.advance(BACK_WINDOW_MS + 1);
  browser.latest().drop(1006);
  t.is(connection.status.value.state, 'reconnecting');
});

test('a close queued before the page came back, then the page shown, reconnects at once too', async (t) => {
  const { browser, connection } = await openRoom();
  // A frozen page gets the close first (backoff scheduled), then the visibility change.
  browser.latest().drop(1006);
  t.is(connection.status.value.state, 'reconnecting');
  await browser.emit('visible');
  t.deepEqual(connection.status.value, { state: 'connecting', cause: 'page_back' });
  t.is(browser.sockets.length, 2);
});

test('a socket that lived through an offline spell is replaced as soon as the network is back', async (t) => {
  const { browser, connection } = await openRoom();
  const old = browser.latest();
  await browser.emit('offline');
  t.deepEqual(connection.status.value, { state: 'open' }, 'a blip does not close it');
  await browser.emit('online');
  t.true(old.closedByClient, 'the socket of the old network is given up');
  t.deepEqual(connection.status.value, { state: 'connecting', cause: 'network_back' });
  t.is(browser.sockets.length, 2);
  t.true(browser.latest().protocols.includes('resume.7'));
  browser.latest().admit(8);
  t.deepEqual(connection.status.value, { state: 'open' });
  // An `online` without an `offline` before it changes nothing.
  await browser.emit('online');
  t.is(browser.sockets.length, 2);
});

test('a keepalive tick that comes late, as in a frozen or throttled page, pings again instead of giving up', async (t) => {
  const { browser, connection } = await openRoom();
  const socket = browser.latest();
  await browser.advance(KEEPALIVE_MS * MISSED_PONGS);
  t.is(socket.pings().length, MISSED_PONGS, 'the pings so far went unanswered');
  // The page is frozen for a minute: its next tick runs late, and the pongs are still queued.
  browser.freezeTimers(60_000);
  await browser.advance(60_000);
  t.false(socket.closedByClient, 'not given up on a tick that could not have heard');
  t.is(socket.pings().length, MISSED_PONGS + 1);
  socket.answerPings();
  await browser.advance(KEEPALIVE_MS * 3);
  t.false(socket.closedByClient);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('a tab back in view whose socket answers the probe stays connected', async (t) => {
  const { browser, connection } = await openRoom();
  const socket = browser.latest();
  await browser.emit('visible');
  socket.answerPings();
  await browser.advance(PROBE_TIMEOUT_MS * 2);
  t.false(socket.closedByClient);
  t.deepEqual(connection.status.value, { state: 'open' });
  t.is(browser.sockets.length, 1);
});

test('a connect that hangs is given up after the timeout and tried again', async (t) => {
  const browser = new FakeBrowser();
  const connection = new RoomConnection('room1', { snapshot: () => undefined, event: () => undefined }, browser);
  await connection.open();
  const hanging = browser.latest();
  await browser.advance(CONNECT_TIMEOUT_MS - 1);
  t.is(connection.status.value.state, 'connecting', 'patient until the timeout');
  t.false(hanging.closedByClient);
  await browser.advance(1);
  t.true(hanging.closedByClient, 'the hanging socket was closed');
  const status = connection.status.value;
  t.is(status.state, 'reconnecting');
  if (status.state !== 'reconnecting') return;
  t.is(status.problem?.kind, 'unreachable');
  await browser.advance(status.inMs);
  browser.latest().admit(1);
  t.deepEqual(connection.status.value, { state: 'open' });
});

test('a ticket request that hangs is given up after the timeout; its late answer opens nothing', async (t) => {
  const browser = new FakeBrowser();
  browser.ticketAnswer = 'hang';
  const connection = new RoomConnection('room1', { snapshot: () => undefined, event: () => undefined }, browser);
  void connection.open();
  await browser.advance(CONNECT_TIMEOUT_MS);
  t.is(connection.status.value.state, 'reconnecting');
  t.is(browser.sockets.length, 0);
  browser.ticketAnswer = 'ticket';
  const status = connection.status.value;
  if (status.state === 'reconnecting') await browser.advance(status.inMs);
  t.is(browser.sockets.length, 1, 'the next attempt connects');
});

test('an open socket that stops answering pings is closed and replaced; commands in flight fail at once', async (t) => {
  const { browser, connection } = await openRoom();
  const dead = browser.latest();
  await browser.advance(KEEPALIVE_MS);
  t.is(dead.pings().length, 1, 'a quiet socket is pinged');
  await browser.advance(KEEPALIVE_MS * (MISSED_PONGS - 1));
  t.is(dead.pings().length, MISSED_PONGS);
  t.false(dead.closedByClient, 'not yet');
  const inFlight = connection.command({ kind: 'pause' } as never);
  await browser.advance(KEEPALIVE_MS);
  t.true(dead.closedByClient, `closed after ${MISSED_PONGS} unanswered pings`);
  const error = await t.throwsAsync(inFlight);
  t.is((error as ApiError | undefined)?.code, 'unavailable');
  const status = connection.status.value;
  t.is(status.state, 'reconnecting');
  if (status.state !== 'reconnecting') return;
  t.is(status.problem?.kind, 'unreachable');
  await browser.advance(status.inMs);
  t.is(browser.sockets.length, 2);
});

test('a socket that answers its pings, or is busy with events, stays open for as long as it lives', async (t) => {
  const { browser, connection } = await openRoom();
  const socket = browser.latest();
  for (let i = 0; i < 30; i++) {
    await browser.advance(KEEPALIVE_MS);
    socket.answerPings();
  }
  t.false(socket.closedByClient);
  const quietPings = socket.pings().length;
  t.true(quietPings > 0 && quietPings <= 30, `pings only while quiet: ${quietPings}`);
  // Events count as life: a busy room sends no pings.
  for (let i = 0; i < 30; i++) {
    socket.message({ type: 'event', seq: 100 + i, at: 0, event: {} });
    await browser.advance(KEEPALIVE_MS);
  }
  t.is(socket.pings().length, quietPings);
  t.deepEqual(connection.status.value, { state: 'open' });
  t.is(browser.sockets.length, 1);
});

test('leaving the room stops every timer: nothing reconnects afterwards', async (t) => {
  const { browser, connection } = await openRoom();
  const socket = browser.latest();
  connection.close();
  t.true(socket.closedByClient);
  await browser.emit('visible');
  await browser.emit('online');
  await browser.advance(10 * 60_000);
  t.is(browser.sockets.length, 1);
  t.is(socket.pings().length, 0);
});
