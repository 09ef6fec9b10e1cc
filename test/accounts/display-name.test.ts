/**
 * A display name changed after joining a room reaches that room: the next chat message carries
 * it and the member list shows it (docs/2026-11-26-profiles-and-accounts.md).
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed } from '../gateways/bed.js';

let bed: GatewayBed;

test.before(async () => {
  bed = await startGatewayBed('display_name');
});
test.after.always(async () => {
  await bed?.close();
});

test('a member renamed after joining is shown under the new name from their next message', async (t) => {
  const owner = await bed.signUp('owner');
  const member = await bed.signUp('member');
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Renames' }, owner.token)).body.room.id;
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token)).status, 200);
  const before = await bed.call<{ message: { name: string } }>('POST', `/api/rooms/${roomId}/chat`, { text: 'before' }, member.token);
  t.is(before.body.message.name, member.username);

  t.is((await bed.call('PATCH', '/api/me', { displayName: 'Grace H.' }, member.token)).status, 200);
  const after = await bed.call<{ message: { name: string } }>('POST', `/api/rooms/${roomId}/chat`, { text: 'after' }, member.token);
  t.is(after.body.message.name, 'Grace H.');
  const members = await bed.call<{ members: Array<{ userId: string; name: string }> }>('GET', `/api/rooms/${roomId}/members`, undefined, owner.token);
  t.is(members.body.members.find((entry) => entry.userId === member.userId)?.name, 'Grace H.');
  // Earlier messages keep the name they were sent under.
  const history = await bed.call<{ messages: Array<{ text: string; name: string }> }>('GET', `/api/rooms/${roomId}/chat`, undefined, owner.token);
  t.deepEqual(
    history.body.messages.map(({ text, name }) => ({ text, name })),
    [
      { text: 'after', name: 'Grace H.' },
      { text: 'before', name: member.username },
    ],
  );
});
