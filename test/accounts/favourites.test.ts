/**
 * Favourite rooms over HTTP against a whole service: a user stars only rooms they may see, and
 * the list shows only those they may still see (a room made hidden, a ban, a deleted room drop
 * out), most recently starred first.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed } from '../gateways/bed.js';

let bed: GatewayBed;

test.before(async () => {
  bed = await startGatewayBed('favourites');
  await bed.set('server', { maxRoomsPerUser: 100 });
});
test.after.always(async () => {
  await bed?.close();
});

const names = (answer: { body: { rooms: Array<{ name: string }> } }) => answer.body.rooms.map((room) => room.name);

test('favourites list only rooms the user may still see, newest star first', async (t) => {
  const alice = await bed.signUp('alice');
  const bob = await bed.signUp('bob');
  const create = async (name: string, visibility: 'public' | 'hidden') =>
    (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name, visibility }, alice.token)).body.room.id;
  const open = await create('Open', 'public');
  const secret = await create('Secret', 'hidden');
  const gone = await create('Gone', 'public');
  const list = () => bed.call<{ rooms: Array<{ name: string; id: string }> }>('GET', '/api/me/favourites', undefined, bob.token);

  t.is((await bed.call('PUT', `/api/me/favourites/${open}`, undefined, bob.token)).status, 204);
  t.is((await bed.call('PUT', `/api/me/favourites/${open}`, undefined, bob.token)).status, 204, 'twice is one star');
  // A hidden room bob is not in: as if it did not exist, and nothing is stored.
  const refused = await bed.call<{ code: string }>('PUT', `/api/me/favourites/${secret}`, undefined, bob.token);
  t.is(refused.status, 404);
  t.is((await bed.call('PUT', '/api/me/favourites/no-such-room', undefined, bob.token)).status, 404);
  t.deepEqual(names(await list()), ['Open']);

  t.is((await bed.call('POST', `/api/rooms/${secret}/join`, {}, bob.token)).status, 200);
  t.is((await bed.call('PUT', `/api/me/favourites/${secret}`, undefined, bob.token)).status, 204);
  t.is((await bed.call('PUT', `/api/me/favourites/${gone}`, undefined, bob.token)).status, 204);
  t.deepEqual(names(await list()), ['Gone', 'Secret', 'Open']);

  // Banned from Secret, Open made hidden (bob never joined it), Gone deleted: none shows.
  t.is((await bed.call('PUT', `/api/rooms/${secret}/bans/${bob.userId}`, undefined, alice.token)).status, 200);
  t.deepEqual(names(await list()), ['Gone', 'Open']);
  t.is((await bed.call('PATCH', `/api/rooms/${open}`, { visibility: 'hidden' }, alice.token)).status, 200);
  t.deepEqual(names(await list()), ['Gone']);
  t.is((await bed.call('DELETE', `/api/rooms/${gone}`, undefined, alice.token)).status, 204);
  t.deepEqual(names(await list()), []);

  // Made public again, the star is still there; unstarring removes it, twice is fine.
  t.is((await bed.call('PATCH', `/api/rooms/${open}`, { visibility: 'public' }, alice.token)).status, 200);
  t.deepEqual(names(await list()), ['Open']);
  t.is((await bed.call('DELETE', `/api/me/favourites/${open}`, undefined, bob.token)).status, 204);
  t.is((await bed.call('DELETE', `/api/me/favourites/${open}`, undefined, bob.token)).status, 204);
  t.deepEqual(names(await list()), []);

  const guest = await bed.guest();
  t.is((await bed.call('GET', '/api/me/favourites', undefined, guest.token)).status, 403);
  t.is((await bed.call('PUT', `/api/me/favourites/${open}`)).status, 401);
});
