/**
 * Revocations travel over NATS at most once, so a gateway also reads every session it holds
 * connections for again, periodically and after a NATS reconnect
 * (gateways/session-connections.ts): a session revoked without a message reaching this gateway
 * still ends its connections, and live sessions keep theirs.
 */
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import type { Caller } from '../../accounts/model.js';
import { SessionStore } from '../../accounts/sessions/session-store.js';
import { SessionConnections, type SessionEnding } from '../../gateways/session-connections.js';
import { createLogger } from '../../observability/logger.js';
import { createPool } from '../../postgres/pool.js';
import { withDeadline } from '../fixtures/deadline.js';
import { testStack } from '../harness/stack.js';
import { startGatewayBed, type GatewayBed } from './bed.js';

const logger = createLogger({ level: 'silent', destination: 'stderr' });
let bed: GatewayBed;
let nc: NatsConnection;
let pool: ReturnType<typeof createPool>;

test.before(async () => {
  bed = await startGatewayBed('session_sweep');
  nc = await connect({ servers: testStack().natsUrl });
  pool = createPool({ url: bed.databaseUrl, max: 2 });
});

test.after.always(async () => {
  await pool?.end();
  await nc?.close();
  await bed?.close();
});

test('a session revoked without an announcement still ends its connections at the next sweep; live ones stay', async (t) => {
  const sessions = new SessionStore(pool, 86_400_000, Buffer.alloc(32));
  // A prefix nobody publishes on: this gateway hears of no revocation, only its sweep can tell.
  const connections = new SessionConnections(nc, `sweep_${Date.now()}`, sessions, bed.service.settings, logger, 200);
  t.teardown(() => connections.close());
  const [revoked, live] = await Promise.all([bed.signUp('revoked'), bed.signUp('live')]);
  const callerOf = async (sessionId: string): Promise<Caller> => {
    const caller = await sessions.resolve(sessionId);
    if (!caller) throw new Error('the session is not live');
    return caller;
  };

  let liveEnded: SessionEnding | undefined;
  connections.hold(await callerOf(live.sessionId), (ending) => (liveEnded = ending));
  const revokedCaller = await callerOf(revoked.sessionId);
  const ended = new Promise<SessionEnding>((resolve) => connections.hold(revokedCaller, resolve));
  t.is(connections.count(), 2);

  // Revoked in the database only, as if its announcement had been lost.
  await pool.query("UPDATE sessions SET revoked_at = now(), revoke_reason = 'test' WHERE id = $1", [revoked.sessionId]);

  const ending = await withDeadline(ended, 10_000, 'the revoked session connection to end at a sweep');
  t.is(ending.code, 'unauthenticated');
  t.regex(ending.message, /session ended/);
  // Another sweep later, the live session's connection is still held.
  await connections.sweep();
  t.is(liveEnded, undefined);
  t.is(connections.count(), 1);
});
