/**
 * The people and rooms of a soak, made through the public API of the first gateway as real
 * users would make them: accounts by password signup, one room per owner with one playable
 * item, the others joined to a room each, an admin, and rooms created under review.
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { createLogger } from '../../observability/logger.js';
import { RuntimeSettings } from '../../settings/runtime-settings.js';
import { createPool } from '../../postgres/pool.js';
import { addressOf, call, expect } from './http.js';
import type { Account } from './socket-person.js';

export interface SoakWorld {
  runId: string;
  admin: Account;
  people: Account[];
  /** Room ids; people[i] starts in rooms[i % rooms.length] (people[i] owns it when i < rooms). */
  rooms: string[];
  /** Rooms pending review at the start. */
  reviewRooms: string[];
}

const PASSWORD = 'soak password 0123456789';

export async function setUp(options: { url: string; databaseUrl: string; clients: number; rooms: number; reviews: number; log: (line: string) => void }): Promise<SoakWorld> {
  const { url } = options;
  const runId = randomBytes(3).toString('hex');
  await withSettings(options.databaseUrl, async (settings) => {
    const author = { actor: 'soak', source: 'soak' };
    await settings.update('user', { enablePasswordSignup: true, passwordSignupNeedReview: false }, author);
    await settings.update('server', { maxRoomsPerUser: 1_000 }, author);
    await settings.update('room', { createRoomNeedReview: false }, author);
  });

  const signUp = async (name: string, index: number): Promise<Account> => {
    const address = addressOf(index);
    const body = await expect(201, `signup ${name}`, url, 'POST', '/api/auth/password/register', { body: { username: name, password: PASSWORD }, address });
    return { userId: (body.user as { id: string }).id, username: name, token: String(body.accessToken), address };
  };
  const started = Date.now();
  const people: Account[] = new Array<Account>(options.clients);
  await inParallel(options.clients, 6, async (i) => void (people[i] = await signUp(`soak_${runId}_${i}`, i)));
  const admin = await signUp(`soak_${runId}_admin`, options.clients);
  await sql(options.databaseUrl, `UPDATE users SET role = 'admin' WHERE id = $1`, [admin.userId]);
  options.log(`${options.clients} accounts and an admin signed up in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const rooms: string[] = new Array<string>(options.rooms);
  await inParallel(options.rooms, 6, async (r) => {
    const owner = people[r]!;
    const room = await expect(201, 'create room', url, 'POST', '/api/rooms', { token: owner.token, address: owner.address, body: { name: `Soak ${runId} ${r}` } });
    const roomId = (room.room as { id: string }).id;
    rooms[r] = roomId;
    const added = await expect(201, 'add media', url, 'POST', `/api/rooms/${roomId}/playlist`, {
      token: owner.token,
      address: owner.address,
      body: { title: `soak-${runId}-film-${r}`, url: 'https://media.example.com/film.mp4' },
    });
    const mediaId = (added.item as { id: string }).id;
    await expect(200, 'set current', url, 'PUT', `/api/rooms/${roomId}/playlist/current`, { token: owner.token, address: owner.address, body: { mediaId } });
  });
  await inParallel(options.clients - options.rooms, 8, async (k) => {
    const i = options.rooms + k;
    const person = people[i]!;
    await expect(200, 'join room', url, 'POST', `/api/rooms/${rooms[i % options.rooms]}/join`, { token: person.token, address: person.address, body: {} });
  });
  options.log(`${options.rooms} rooms made and ${options.clients - options.rooms} people joined in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const reviewRooms: string[] = [];
  if (options.reviews > 0) {
    await withSettings(options.databaseUrl, (settings) => settings.update('room', { createRoomNeedReview: true }, { actor: 'soak', source: 'soak' }));
    try {
      for (let k = 0; k < options.reviews; k++) {
        const author = people[k % people.length]!;
        const room = await expect(201, 'create room under review', url, 'POST', '/api/rooms', { token: author.token, address: author.address, body: { name: `Soak ${runId} review ${k}` } });
        const info = room.room as { id: string; status: string };
        if (info.status !== 'pending_review') throw new Error(`a room created under review is ${info.status}`);
        reviewRooms.push(info.id);
      }
    } finally {
      await withSettings(options.databaseUrl, (settings) => settings.update('room', { createRoomNeedReview: false }, { actor: 'soak', source: 'soak' }));
    }
    // Each review's workflow answers before the load starts: "pending at the start" is a fact.
    for (const roomId of reviewRooms) {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const answer = await call(url, 'GET', `/api/admin/reviews/${encodeURIComponent(`room-review:${roomId}`)}`, { token: admin.token, address: admin.address });
        if (answer.status === 200 && answer.body.state === 'pending') break;
        if (Date.now() > deadline) throw new Error(`review of ${roomId} not pending within 60 s: ${answer.status} ${JSON.stringify(answer.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    options.log(`${reviewRooms.length} rooms pending review`);
  }
  return { runId, admin, people, rooms, reviewRooms };
}

async function withSettings<T>(databaseUrl: string, work: (settings: RuntimeSettings) => Promise<T>): Promise<T> {
  const logger = createLogger({ level: 'warn', destination: 'stderr' });
  const pool = createPool({ url: databaseUrl, max: 2, logger });
  const settings = await RuntimeSettings.start({ pool, connectionString: databaseUrl, logger, replicaId: 'soak' });
  try {
    return await work(settings);
  } finally {
    await settings.stop();
    await pool.end();
  }
}

/** One query on the primary (the URL may list a pair: createPool finds which is which). */
export async function sql<R extends pg.QueryResultRow>(databaseUrl: string, text: string, values: unknown[] = []): Promise<R[]> {
  const pool = createPool({ url: databaseUrl, max: 1 });
  try {
    return (await pool.query<R>(text, values)).rows;
  } finally {
    await pool.end();
  }
}

export async function inParallel(count: number, concurrency: number, work: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
}
