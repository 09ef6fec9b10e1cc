/**
 * The playlist's byte budget (actors/room/playlist-budget.ts), through a real actor host and
 * NATS: whatever the per-item limits allow, the room view must still fit in one NATS message.
 */
import test from 'ava';
import type { NatsConnection } from 'nats';
import { isAppError } from '../../../errors/app-error.js';
import { ROOM_LIMITS, type MediaItem, type MemberRoomView, type RoomCommand, type RoomView } from '../../../actors/room/index.js';
import { PLAYLIST_MAX_BYTES } from '../../../actors/room/media/playlist-budget.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { ActorClient, type TypedActorClient } from '../../../actors/runtime/client.js';
import { ActorHost } from '../../../actors/runtime/host.js';
import { connectNats, uniquePrefix } from '../../fixtures/actor-host-process.js';
import { RoomTestBed, logger, uid, user } from './fixtures.js';

let bed: RoomTestBed;
let host: ActorHost;
let hostConnection: NatsConnection;
let gateway: NatsConnection;
let rooms: TypedActorClient;

test.before(async () => {
  bed = await RoomTestBed.start('room_payload_budget');
  const prefix = uniquePrefix('roombudget');
  [hostConnection, gateway] = await Promise.all([connectNats(`${prefix}-host`), connectNats(`${prefix}-gateway`)]);
  host = await ActorHost.start({ nc: hostConnection, prefix, hostId: `${prefix}-host`, types: [bed.type], logger });
  rooms = new ActorClient(gateway, prefix).forType('room');
});

test.after.always(async () => {
  await gateway?.close();
  await host?.stop();
  await hostConnection?.close();
  await bed?.close();
});

async function send<R = unknown>(roomId: string, caller: Caller, command: RoomCommand): Promise<R> {
  return (await rooms.send<R>(roomId, command, { caller, timeoutMs: 10_000 })).result;
}

/**
 * The most JSON one item can take within every limit: each field at its maximum length, made
 * of characters that take the most bytes (4-byte emoji in labels, 3-byte characters in URLs,
 * quotes in header values, which JSON escapes).
 */
function largestItem(n: number): Omit<Extract<RoomCommand, { kind: 'playlist.push' }>, 'kind'> {
  const prefix = `https://media.example.com/${n}/`;
  const url = prefix + '€'.repeat(ROOM_LIMITS.urlMaxChars - prefix.length);
  const headers: Record<string, string> = {};
  for (let i = 0; i < ROOM_LIMITS.headersMaxCount; i++) {
    headers[`X-Header-${i}-`.padEnd(ROOM_LIMITS.headerNameMaxChars, 'a')] = '"'.repeat(ROOM_LIMITS.headerValueMaxChars);
  }
  return {
    title: '😀'.repeat(ROOM_LIMITS.titleMaxChars),
    url,
    provider: 'p'.repeat(32),
    headers,
    subtitles: Array.from({ length: ROOM_LIMITS.subtitlesMaxCount }, () => ({
      name: '😀'.repeat(ROOM_LIMITS.nameMaxChars),
      url,
      language: 'abc-12345678-12345678-12345678-1234',
    })),
  };
}

function playlistIds(view: RoomView): string[] {
  return ((view as MemberRoomView).playlist ?? []).map((item) => item.id);
}

async function storedCount(roomId: string): Promise<number> {
  const { rows } = await bed.pool.query<{ n: string }>('SELECT count(*) AS n FROM room_playlist WHERE room_id = $1', [roomId]);
  return Number(rows[0]?.n);
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
    return undefined;
  } catch (err) {
    return err;
  }
}

test('a playlist of the largest items the limits allow stops at its byte budget, and the room still opens', async (t) => {
  const owner = user(uid('owner'), 'Owner');
  const bob = user(uid('bob'), 'Bob');
  const roomId = uid('room');
  await send(roomId, owner, { kind: 'room.create', name: 'Budget night', visibility: 'public' });
  await send(roomId, bob, { kind: 'member.join' });

  const pushed: string[] = [];
  let refused: unknown;
  // Twenty such items are megabytes; the budget refuses long before.
  for (let i = 0; i < 20 && refused === undefined; i++) {
    refused = await refusal(
      send<{ item: MediaItem }>(roomId, owner, { kind: 'playlist.push', ...largestItem(i) }).then((r) => pushed.push(r.item.id)),
    );
  }
  t.true(isAppError(refused) && refused.code === 'limit_exceeded', `the push was refused: ${String(refused)}`);
  t.regex((refused as Error).message, new RegExp(`over its budget of ${PLAYLIST_MAX_BYTES} bytes`));
  t.true(pushed.length >= 1, 'items within every limit are accepted while the budget lasts');

  // The refused push changed nothing, and the room answers the whole list to both members.
  t.deepEqual(playlistIds(await send(roomId, owner, { kind: 'room.get' })), pushed);
  t.deepEqual(playlistIds(await send(roomId, bob, { kind: 'room.get' })), pushed);
  t.deepEqual(playlistIds(await send(roomId, bob, { kind: 'presence.enter', connectionId: 'tab-1' })), pushed);
  t.is(await storedCount(roomId), pushed.length);
  const refusedInsert = await refusal(send(roomId, owner, { kind: 'playlist.insert', index: 0, ...largestItem(99) }));
  t.true(isAppError(refusedInsert) && refusedInsert.code === 'limit_exceeded', 'insert is held to the same budget');

  // Shrinking an item makes room again; growing one back beyond the budget is refused.
  const [first] = pushed as [string];
  await send(roomId, owner, { kind: 'playlist.edit', mediaId: first, title: 'Short', headers: {}, subtitles: [] });
  const again = await send<{ item: MediaItem }>(roomId, owner, { kind: 'playlist.push', ...largestItem(100) });
  const { title: _title, url: _url, ...heavy } = largestItem(101);
  const refusedEdit = await refusal(send(roomId, owner, { kind: 'playlist.edit', mediaId: first, ...heavy }));
  t.true(isAppError(refusedEdit) && refusedEdit.code === 'limit_exceeded', `the edit was refused: ${String(refusedEdit)}`);
  const view = await send<MemberRoomView>(roomId, bob, { kind: 'room.get' });
  t.deepEqual(playlistIds(view), [...pushed, again.item.id]);
  t.like(view.playlist?.[0], { id: first, title: 'Short', headers: {}, subtitles: [] });
});
