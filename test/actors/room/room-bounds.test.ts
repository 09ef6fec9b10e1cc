/**
 * Room state stays bounded (docs/2026-11-26-room-abuse.md), over HTTP against a whole
 * service: bans and join requests stop at their caps with `limit_exceeded`, and a room stored
 * with thousands of bans (written before the caps) still opens for its owner, whose view
 * carries one page of them while GET /bans (and gRPC ListBans) pages through the rest with a
 * cursor; pinned messages page the same way. A stadium room's view names its owner and
 * admins and counts the rest, which GET /members (and gRPC PageMembers) page through.
 */
import test from 'ava';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { DEFAULT_ROOM_OPTIONS, insertRoom } from '../../../actors/room/room-rows.js';
import { connectGrpc } from '../../../gateways/grpc/client.js';
import { createPool } from '../../../postgres/pool.js';
import type pg from 'pg';
import { startGatewayBed, type GatewayBed, type Member } from '../../gateways/bed.js';
import { RealtimeClient } from '../../harness/ws-client.js';
import { uid } from './fixtures.js';

let bed: GatewayBed;
let pool: pg.Pool;

test.before(async () => {
  bed = await startGatewayBed('room-bounds');
  // Seats above the join-request cap, so the cap is what stops a join.
  await bed.set('server', { maxRoomsPerUser: 100, maxMembersPerRoom: ROOM_LIMITS.pendingJoinRequestsMax + 10 });
  pool = createPool({ url: bed.databaseUrl, max: 2 });
});
test.after.always(async () => {
  await pool?.end();
  await bed?.close();
});

/** Names as long as a display name gets, in 4-byte characters: the most JSON a ban can take. */
const LONG_NAME = '😀'.repeat(ROOM_LIMITS.nameMaxChars);

/**
 * A room of `owner` stored with `bans` bans (user ids `ban-00000`...) and `pending` join
 * requests, written through the store before anything addresses the room, as a room from
 * before the caps would be: its first activation loads them all. Commands would take minutes
 * for thousands.
 */
async function storedRoom(owner: Member, bans: number, pending = 0, fans = 0): Promise<string> {
  const roomId = uid('bounds');
  const now = Date.now();
  await insertRoom(
    pool,
    {
      id: roomId,
      name: 'Crowded',
      ownerId: owner.userId,
      passwordHash: null,
      visibility: 'public',
      status: 'active',
      options: { ...DEFAULT_ROOM_OPTIONS, requireJoinApproval: pending > 0 },
      createdAt: now,
      updatedAt: now,
    },
    { userId: owner.userId, name: 'Owner', role: 'admin', status: 'active', guest: false, joinedAt: now },
    { mediaId: null, playing: false, position: 0, rate: 1, updatedAt: now, version: 0, versionReserved: 1000 },
  );
  await pool.query(
    `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at)
     SELECT $1, 'ban-' || lpad(n::text, 5, '0'), $2, 'member', 'banned', false, now() FROM generate_series(0, $3 - 1) AS n`,
    [roomId, LONG_NAME, bans],
  );
  await pool.query(
    `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at)
     SELECT $1, 'asker-' || n, 'Asker', 'member', 'pending', false, now() FROM generate_series(1, $2) AS n`,
    [roomId, pending],
  );
  await pool.query(
    `INSERT INTO room_members (room_id, user_id, name, role, status, guest, joined_at)
     SELECT $1, 'fan-' || lpad(n::text, 5, '0'), 'Fan ' || lpad(n::text, 5, '0'), 'member', 'active', false, now() FROM generate_series(0, $2 - 1) AS n`,
    [roomId, fans],
  );
  return roomId;
}

/** The parts of the owner's room view these tests read. */
interface OwnerView {
  bannedMembers?: Array<{ userId: string }>;
  bannedCount?: number;
}

interface BanPage {
  members: Array<{ userId: string; status: string }>;
  nextCursor?: string;
  total: number;
}

test('a room with thousands of stored bans still opens for its owner, and the bans page through with a cursor', async (t) => {
  const owner = await bed.signUp('owner');
  const bans = 4000;
  const roomId = await storedRoom(owner, bans);

  const opened = await bed.call<OwnerView>('GET', `/api/rooms/${roomId}`, undefined, owner.token);
  t.is(opened.status, 200, JSON.stringify(opened.body).slice(0, 300));
  t.is(opened.body.bannedCount, bans);
  t.is(opened.body.bannedMembers?.length, ROOM_LIMITS.bansInView);
  t.is(opened.body.bannedMembers?.[0]?.userId, 'ban-00000');
  // One page of the largest bans, not the 1.6 MB of all of them that went over NATS's 1 MiB.
  t.true(Buffer.byteLength(JSON.stringify(opened.body)) < 64 * 1024, 'the view stays small');

  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages <= bans / ROOM_LIMITS.banPageMaxLimit; pages++) {
    const query = `limit=${ROOM_LIMITS.banPageMaxLimit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = await bed.call<BanPage>('GET', `/api/rooms/${roomId}/bans?${query}`, undefined, owner.token);
    t.is(page.status, 200);
    t.is(page.body.total, bans);
    seen.push(...page.body.members.map((member) => member.userId));
    cursor = page.body.nextCursor;
    if (!cursor) break;
  }
  t.is(cursor, undefined, 'the last page has no cursor');
  t.is(seen.length, bans);
  t.is(new Set(seen).size, bans, 'no ban is seen twice');
  t.deepEqual(seen, [...seen].sort());

  // gRPC: ListMembers carries the view's first page, ListBans pages on.
  const grpcClient = connectGrpc(bed.grpcAddress).as({ token: owner.token });
  t.teardown(() => grpcClient.close());
  const listed = await grpcClient.members.ListMembers({ roomId });
  t.is(listed.bannedMembers?.members.length, ROOM_LIMITS.bansInView);
  const first = await grpcClient.members.ListBans({ roomId, limit: ROOM_LIMITS.banPageMaxLimit });
  t.is(first.total, bans);
  t.deepEqual(first.members.map((member) => member.userId), seen.slice(0, ROOM_LIMITS.banPageMaxLimit));
  const second = await grpcClient.members.ListBans({ roomId, after: first.nextAfter ?? '' });
  t.deepEqual(
    second.members.map((member) => member.userId),
    seen.slice(ROOM_LIMITS.banPageMaxLimit, ROOM_LIMITS.banPageMaxLimit + ROOM_LIMITS.banPageDefaultLimit),
  );
});

test('banning past the cap is limit_exceeded naming it, and writes nothing; lifting one makes room', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await storedRoom(owner, ROOM_LIMITS.bansMax);

  const refused = await bed.call<{ code: string; message: string }>('PUT', `/api/rooms/${roomId}/bans/one-too-many`, undefined, owner.token);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'limit_exceeded');
  t.regex(refused.body.message, new RegExp(`${ROOM_LIMITS.bansMax} bans per room`));
  const page = await bed.call<BanPage>('GET', `/api/rooms/${roomId}/bans?limit=1`, undefined, owner.token);
  t.is(page.body.total, ROOM_LIMITS.bansMax);
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM room_members WHERE room_id = $1 AND status = 'banned'`, [roomId]);
  t.is(Number(rows[0]?.n), ROOM_LIMITS.bansMax);

  // Banning someone already banned is no new ban, so it is still answered.
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/bans/ban-00007`, undefined, owner.token)).status, 200);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/bans/ban-00007`, undefined, owner.token)).status, 200);
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/bans/one-too-many`, undefined, owner.token)).status, 200);
});

test('join requests stop at their cap with limit_exceeded', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await storedRoom(owner, 0, ROOM_LIMITS.pendingJoinRequestsMax - 1);
  const last = await bed.signUp('last');
  const accepted = await bed.call<{ status: string }>('POST', `/api/rooms/${roomId}/join`, {}, last.token);
  t.is(accepted.status, 200);
  t.is(accepted.body.status, 'pending');

  const newcomer = await bed.signUp('newcomer');
  const refused = await bed.call<{ code: string; message: string }>('POST', `/api/rooms/${roomId}/join`, {}, newcomer.token);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'limit_exceeded');
  t.regex(refused.body.message, new RegExp(`the most allowed \\(${ROOM_LIMITS.pendingJoinRequestsMax}\\)`));
  const requests = await bed.call<{ members: unknown[] }>('GET', `/api/rooms/${roomId}/join-requests`, undefined, owner.token);
  t.is(requests.body.members.length, ROOM_LIMITS.pendingJoinRequestsMax);
});

test('pinned messages page through with a cursor over HTTP and gRPC, however long they are', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await storedRoom(owner, 0);
  // 150 pins of the longest text (2000 four-byte characters) are 1.2 MB: one answer cannot hold them.
  const pins = 150;
  await pool.query(
    `INSERT INTO chat_messages (room_id, user_id, name, text, pinned)
     SELECT $1, $2, 'Owner', $3, true FROM generate_series(1, $4)`,
    [roomId, owner.userId, '😀'.repeat(ROOM_LIMITS.chatMaxChars), pins],
  );

  const seen: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages <= pins / ROOM_LIMITS.chatHistoryMaxLimit; pages++) {
    const query = `limit=${ROOM_LIMITS.chatHistoryMaxLimit}${cursor ? `&cursor=${cursor}` : ''}`;
    const page = await bed.call<{ messages: Array<{ id: string; pinned: boolean }>; nextCursor?: string }>(
      'GET',
      `/api/rooms/${roomId}/chat/pins?${query}`,
      undefined,
      owner.token,
    );
    t.is(page.status, 200);
    seen.push(...page.body.messages.map((message) => message.id));
    cursor = page.body.nextCursor;
    if (!cursor) break;
  }
  t.is(seen.length, pins);
  t.is(new Set(seen).size, pins);
  t.deepEqual(seen, [...seen].sort((a, b) => Number(b) - Number(a)), 'newest first');

  const grpcClient = connectGrpc(bed.grpcAddress).as({ token: owner.token });
  t.teardown(() => grpcClient.close());
  const first = await grpcClient.chat.ListPins({ roomId });
  t.is(first.messages.length, ROOM_LIMITS.chatHistoryDefaultLimit);
  const next = await grpcClient.chat.ListPins({ roomId, before: first.nextBefore ?? '', limit: ROOM_LIMITS.chatHistoryMaxLimit });
  t.deepEqual(next.messages.map((message) => message.id), seen.slice(ROOM_LIMITS.chatHistoryDefaultLimit));
  t.is(next.nextBefore, undefined);
});

test('a stadium room: its view names the owner and counts everyone, the members page through over HTTP and gRPC, and a watch gets the whole list again once it thins out', async (t) => {
  const owner = await bed.signUp('owner');
  const crowd = ROOM_LIMITS.crowdEnterMembers + 1;
  const roomId = await storedRoom(owner, 0, 0, crowd);

  const opened = await bed.call<{ members: Array<{ userId: string }>; headcount: { members: number; online: number; crowd: boolean } }>('GET', `/api/rooms/${roomId}`, undefined, owner.token);
  t.is(opened.status, 200);
  t.deepEqual(opened.body.headcount, { members: crowd + 1, online: 0, crowd: true });
  t.deepEqual(opened.body.members.map((member) => member.userId), [owner.userId]);

  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bed.call<BanPage>('GET', `/api/rooms/${roomId}/members?limit=${ROOM_LIMITS.memberPageDefaultLimit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, undefined, owner.token);
    t.is(page.status, 200);
    t.is(page.body.total, crowd + 1);
    seen.push(...page.body.members.map((member) => member.userId));
    cursor = page.body.nextCursor;
  } while (cursor);
  t.is(new Set(seen).size, crowd + 1, 'everyone once');
  const found = await bed.call<BanPage>('GET', `/api/rooms/${roomId}/members?q=${encodeURIComponent('FAN 00042')}`, undefined, owner.token);
  t.deepEqual(found.body.members.map((member) => member.userId), ['fan-00042']);
  const refused = await bed.call<{ code: string; message: string }>('GET', `/api/rooms/${roomId}/members?limit=${ROOM_LIMITS.memberPageMaxLimit + 1}`, undefined, owner.token);
  t.is(refused.status, 400);
  t.regex(refused.body.message, /limit/);

  const grpcClient = connectGrpc(bed.grpcAddress).as({ token: owner.token });
  t.teardown(() => grpcClient.close());
  const first = await grpcClient.members.PageMembers({ roomId, limit: 50 });
  t.is(first.total, crowd + 1);
  t.deepEqual(first.members.map((member) => member.userId), seen.slice(0, 50));
  t.deepEqual((await grpcClient.members.PageMembers({ roomId, after: first.nextAfter ?? '', limit: 3 })).members.map((m) => m.userId), seen.slice(50, 53));

  // A watching owner: kicks down to one short of crowdLeaveMembers end the crowd, and the watch
  // is sent a fresh snapshot that lists everyone.
  const watch = await RealtimeClient.connect({ url: bed.url, roomId, token: owner.token });
  t.teardown(() => watch.close());
  const kicks = crowd + 1 - (ROOM_LIMITS.crowdLeaveMembers - 1);
  for (let i = 0; i < kicks; i++) {
    const kick = () => bed.call('POST', `/api/rooms/${roomId}/members/fan-${String(i).padStart(5, '0')}/kick`, undefined, owner.token);
    let kicked = await kick();
    // The owner's command rate (rooms.command_rate) is what a moderator's burst meets too.
    while (kicked.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      kicked = await kick();
    }
    t.is(kicked.status, 200);
  }
  const deadline = Date.now() + 10_000;
  while (watch.snapshot?.view.members?.length !== ROOM_LIMITS.crowdLeaveMembers - 1) {
    if (Date.now() > deadline) return t.fail(`no relisting snapshot: ${JSON.stringify(watch.snapshot?.view.headcount)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.like(watch.snapshot?.view, { headcount: { members: ROOM_LIMITS.crowdLeaveMembers - 1, crowd: false } });
  t.false(watch.events.some((event) => event.event.type === 'headcount' && 'relist' in event.event), 'relist is answered, never passed on');
});
