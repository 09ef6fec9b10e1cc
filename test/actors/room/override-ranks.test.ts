/**
 * Admins cannot out-rank each other through permission overrides (docs/2026-11-26-room-abuse.md),
 * over HTTP against a whole service: only the owner changes the admin role; another admin
 * changes members' and guests' permissions only within their own; nobody hands administration
 * permissions to members or guests.
 */
import test from 'ava';
import type { Permission } from '../../../contracts/permissions/names.js';
import { PERMISSIONS } from '../../../contracts/permissions/names.js';
import { startGatewayBed, type GatewayBed, type Member } from '../../gateways/bed.js';

let bed: GatewayBed;

test.before(async () => {
  bed = await startGatewayBed('room-override-ranks');
  await bed.set('server', { maxRoomsPerUser: 100 });
});
test.after.always(async () => {
  await bed?.close();
});

interface Refusal {
  code: string;
  message: string;
  issues?: Array<{ key: string; message: string }>;
}
interface Permissions {
  overrides: Partial<Record<'admin' | 'member' | 'guest', Permission[]>>;
  defaults: Record<'admin' | 'member' | 'guest', Permission[]>;
}

/** A room of `owner` with `admin` made an admin by the owner, and `member` a plain member. */
async function roomWithAdmin(owner: Member, admin: Member, member: Member): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Ranks' }, owner.token);
  const roomId = created.body.room.id;
  for (const who of [admin, member]) expectOk(await bed.call('POST', `/api/rooms/${roomId}/join`, {}, who.token));
  expectOk(await bed.call('PUT', `/api/rooms/${roomId}/members/${admin.userId}/role`, { role: 'admin' }, owner.token));
  return roomId;
}

function expectOk(answer: { status: number; body: unknown }): void {
  if (answer.status !== 200) throw new Error(`setup failed: ${answer.status} ${JSON.stringify(answer.body)}`);
}

const permissionsOf = (roomId: string, who: Member) => bed.call<Permissions>('GET', `/api/rooms/${roomId}/permissions`, undefined, who.token);
const patch = (roomId: string, who: Member, body: unknown) => bed.call<Refusal & Permissions>('PATCH', `/api/rooms/${roomId}/permissions`, body, who.token);

test("only the owner changes the admin role's permissions", async (t) => {
  const [owner, admin, member] = await Promise.all([bed.signUp('owner'), bed.signUp('admin'), bed.signUp('member')]);
  const roomId = await roomWithAdmin(owner, admin, member);
  const all = [...PERMISSIONS];

  const refused = await patch(roomId, admin, { admin: all });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'forbidden');
  t.regex(refused.body.message, /only the room owner can change the admin role/);
  // Also through the room settings route, which takes the same overrides.
  const viaSettings = await bed.call<Refusal>('PATCH', `/api/rooms/${roomId}`, { permissionOverrides: { admin: all } }, admin.token);
  t.is(viaSettings.status, 403);
  t.deepEqual((await permissionsOf(roomId, owner)).body.overrides, {}, 'nothing was written');

  const restricted = all.filter((name) => name !== 'pin_chat');
  const byOwner = await patch(roomId, owner, { admin: restricted });
  t.is(byOwner.status, 200);
  t.deepEqual(byOwner.body.overrides.admin, restricted);
  // The restricted admin cannot lift the restriction either, nor return the role to its default.
  t.is((await patch(roomId, admin, { admin: all })).status, 403);
  t.is((await patch(roomId, admin, { admin: null })).status, 403);
  // Sending the admin role back unchanged (as an editor saving every role does) is no change.
  t.is((await patch(roomId, admin, { admin: restricted, member: null })).status, 200);
});

test('an admin who is not the owner grants members and guests only permissions they hold', async (t) => {
  const [owner, admin, member] = await Promise.all([bed.signUp('owner'), bed.signUp('admin'), bed.signUp('member')]);
  const roomId = await roomWithAdmin(owner, admin, member);
  t.is((await patch(roomId, owner, { admin: PERMISSIONS.filter((name) => name !== 'pin_chat' && name !== 'delete_chat') })).status, 200);
  const memberDefaults = (await permissionsOf(roomId, owner)).body.defaults.member;

  const refused = await patch(roomId, admin, { member: [...memberDefaults, 'pin_chat'] });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'forbidden');
  t.regex(refused.body.message, /you lack pin_chat/);
  t.deepEqual((await permissionsOf(roomId, owner)).body.overrides.member, undefined, 'nothing was written');

  const granted = await patch(roomId, admin, { member: [...memberDefaults, 'reorder_media_resources'] });
  t.is(granted.status, 200, JSON.stringify(granted.body));
  t.true(granted.body.overrides.member?.includes('reorder_media_resources'));

  // What they do not hold they cannot take away either: the owner gives members pin_chat...
  t.is((await patch(roomId, owner, { member: [...memberDefaults, 'pin_chat'] })).status, 200);
  const takeAway = await patch(roomId, admin, { member: memberDefaults });
  t.is(takeAway.status, 403);
  t.regex(takeAway.body.message, /you lack pin_chat/);
});

test('administration permissions are never granted to members or guests, by an admin or the owner', async (t) => {
  const [owner, admin, member] = await Promise.all([bed.signUp('owner'), bed.signUp('admin'), bed.signUp('member')]);
  const roomId = await roomWithAdmin(owner, admin, member);
  const memberDefaults = (await permissionsOf(roomId, owner)).body.defaults.member;

  for (const [who, grant] of [
    [admin, 'manage_members'],
    [admin, 'edit_room_settings'],
    [owner, 'manage_members'],
    [owner, 'edit_room_settings'],
  ] as const) {
    const refused = await patch(roomId, who, { member: [...memberDefaults, grant] });
    t.is(refused.status, 400, `${grant} for members by ${who === owner ? 'the owner' : 'an admin'}`);
    t.is(refused.body.code, 'invalid_argument');
    // The schema says which permissions a member list may hold, so the refusal names the entry sent.
    t.is(refused.body.issues?.[0]?.key, `member.${memberDefaults.length}`);
    t.regex(refused.body.issues?.[0]?.message ?? '', new RegExp(`${grant} belong to the admin role`));
  }
  const guests = await patch(roomId, owner, { guest: ['manage_members'] });
  t.is(guests.status, 400);
  t.is(guests.body.issues?.[0]?.key, 'guest.0');
  t.regex(guests.body.issues?.[0]?.message ?? '', /above the guest ceiling/);
  t.deepEqual((await permissionsOf(roomId, owner)).body.overrides, {}, 'nothing was written');

  // The member still cannot manage anyone.
  const kick = await bed.call('POST', `/api/rooms/${roomId}/members/${admin.userId}/kick`, undefined, member.token);
  t.is(kick.status, 403);
});
