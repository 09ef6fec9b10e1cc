/**
 * The room load the actor benchmarks drive through an ActorClient: rooms `bench-<i>` owned ten
 * per user, the playback/read command mix, and a closed loop of back-to-back senders.
 */
import type { Caller } from '../actors/runtime/actor-type.js';
import type { ActorClient } from '../actors/runtime/client.js';

export const roomId = (i: number): string => `bench-${i}`;
/** Rooms per owner stay within the default server.maxRoomsPerUser (10). */
export const ownerOf = (i: number): Caller => ({ userId: `bench-user-${Math.floor(i / 10)}`, name: 'Bench' });

/** An error as String() shows it (name and message); anything else thrown as JSON. */
export const describe = (err: unknown): string => (err instanceof Error ? err.toString() : JSON.stringify(err));

/** A command of the playback/read mix for room `i`, varied so no two in a row are alike. */
export function playbackCommand(n: number): unknown {
  switch (n % 4) {
    case 0:
      return { kind: 'playback.seek', position: n % 3600 };
    case 1:
      return { kind: 'playback.rate', rate: 1 + (n % 2) * 0.25 };
    case 2:
      return { kind: 'playback.pause' };
    default:
      return { kind: 'room.get' };
  }
}

export interface ClosedLoopOptions {
  rooms: number;
  /** Senders, each with one command in flight. */
  concurrency: number;
  seconds: number;
}

/** Closed loop: `concurrency` senders send back to back for `seconds`; returns commands/s. */
export async function closedLoop(
  client: ActorClient,
  command: (n: number) => unknown,
  { rooms, concurrency, seconds }: ClosedLoopOptions,
): Promise<{ rate: number; errors: number }> {
  let sent = 0;
  let done = 0;
  let errors = 0;
  let firstError: unknown;
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const n = sent++;
        try {
          await client.send('room', roomId(n % rooms), command(n), { caller: ownerOf(n % rooms), timeoutMs: 10_000 });
          done += 1;
        } catch (err) {
          errors += 1;
          firstError ??= err;
        }
      }
    }),
  );
  if (firstError) console.log(`    first error: ${describe(firstError)}`);
  return { rate: done / ((performance.now() - started) / 1000), errors };
}

/** Creates `count` rooms, each with one playlist item as its current media, 32 at a time. */
export async function createRooms(client: ActorClient, count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      for (let i = next++; i < count; i = next++) {
        const options = { caller: ownerOf(i), timeoutMs: 30_000 };
        await client.send('room', roomId(i), { kind: 'room.create', name: `Bench ${i}`, visibility: 'public' }, options);
        const { result } = await client.send<{ item: { id: string } }>(
          'room',
          roomId(i),
          { kind: 'playlist.push', title: `Video ${i}`, url: `https://media.example.com/${i}.mp4`, provider: 'direct' },
          options,
        );
        await client.send('room', roomId(i), { kind: 'playlist.setCurrent', mediaId: result.item.id }, options);
      }
    }),
  );
}
