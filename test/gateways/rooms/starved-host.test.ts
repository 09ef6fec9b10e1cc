/**
 * A host whose event loop is held past its lease (actors.lease_ttl_ms: ffmpeg and three browsers
 * on two cores did it in the transcode e2e) loses every activation. What a room acknowledged but
 * kept only in memory (its playback, saved lazily) is saved under its fence as it lets go, so
 * the room plays on where it was once the host is back (docs/2026-11-21-actor-runtime.md).
 */
import test from 'ava';
import { pino } from 'pino';
import { eventually } from '../../fixtures/deadline.js';
import { startGatewayBed, type GatewayBed } from '../bed.js';

let bed: GatewayBed;
const lines: Array<Record<string, unknown>> = [];

test.before(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  bed = await startGatewayBed('starved-host', { logger });
});
test.after.always(async () => {
  await bed?.close();
});

interface Playback {
  mediaId: string | null;
  playing: boolean;
  position: number;
}

test('a play acknowledged just before the host lost its lease to a held event loop is still playing when the host is back', async (t) => {
  const owner = await bed.signUp('starved');
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Starved' }, owner.token)).body.room.id;
  const item = (await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'E1', url: 'https://media.example.com/e1.mp4' }, owner.token)).body.item;
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: item.id }, owner.token)).status, 200);
  const played = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/play`, {}, owner.token);
  t.true(played.body.playback.playing);

  // Held for longer than the lease (1.5 s by default): no heartbeat goes out meanwhile.
  const heldUntil = performance.now() + 2_500;
  while (performance.now() < heldUntil) {
    // the host's process does nothing else
  }
  await eventually(() => lines.some((line) => line.msg === 'every activation stopped: this host no longer holds its lease'), 10_000, 'the host lost its lease');
  await eventually(() => lines.some((line) => line.msg === 'actor deactivated' && line.actorId === roomId && line.reason === 'lease-lost'), 10_000, 'the room let go');

  const after = await bed.call<{ playback: Playback }>('GET', `/api/rooms/${roomId}/playback`, undefined, owner.token);
  t.is(after.status, 200);
  t.is(after.body.playback.mediaId, item.id);
  t.true(after.body.playback.playing, 'the next activation plays, as acknowledged');
  t.true(after.body.playback.position >= 2.5, `it played on meanwhile: at ${after.body.playback.position} s`);
});
