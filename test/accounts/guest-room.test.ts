import test from 'ava';
import { actorCallerOf } from '../../accounts/actor-caller.js';
import { RoomTestBed, uid, user } from '../actors/room/fixtures.js';
import { call, native, uniqueIp, startAccountsBed, uname, type AccountsBed } from './fixtures.js';

let accounts: AccountsBed;
let rooms: RoomTestBed;
test.before(async () => {
  accounts = await startAccountsBed('accounts-guest-room');
  rooms = await RoomTestBed.start('accounts_guest_room');
  await accounts.set('user', { enableGuest: true, enablePasswordSignup: true });
  await rooms.settings.update('user', { enableGuest: true }, { actor: 'test', source: 'test', replicaId: 'test' });
});
test.after.always(async () => {
  await accounts?.close();
  await rooms?.close();
});

const signIn = async (path: string, body: Record<string, unknown>) => {
  const answer = await call<{ sessionId: string }>(`${accounts.url}${path}`, 'POST', body, { ...native, 'x-forwarded-for': uniqueIp() });
  const caller = await accounts.accounts.sessions.resolve(answer.body.sessionId);
  if (!caller) throw new Error(`no session from ${path}: ${JSON.stringify(answer.body)}`);
  return actorCallerOf(caller);
};

test('a guest session reaches a room as a guest, held to the guest role', async (t) => {
  const owner = user(uid('owner'));
  const room = await rooms.createRoom(owner);
  const visitor = await signIn('/api/auth/guest', { displayName: 'Visitor' });
  t.like(visitor, { guest: true, name: 'Visitor' });
  t.falsy(visitor.service);
  const joined = await room.send(visitor, { kind: 'member.join' });
  t.like(joined.member, { role: 'guest', guest: true, name: 'Visitor' });
});

test('a user session reaches a room as that user, not a guest', async (t) => {
  const owner = user(uid('owner'));
  const room = await rooms.createRoom(owner);
  const name = uname('member');
  const member = await signIn('/api/auth/password/register', { username: name, password: 'correct horse battery' });
  t.falsy(member.guest);
  const joined = await room.send(member, { kind: 'member.join' });
  t.like(joined.member, { role: 'member', guest: false, name });
});
