import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import type { WatchRoomResponse__Output } from '../../../gateways/grpc/gen/svc/v1/WatchRoomResponse.js';
import type { SvcGrpc } from '../../../gateways/grpc/client.js';
import { GrpcCallError } from '../../../gateways/grpc/status.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { refused, startGrpcBed, type GrpcBed } from './fixtures.js';

let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('grpc_watch');
});
test.after.always(async () => {
  await g?.close();
});

const WAIT_MS = 10_000;

/** A WatchRoom stream's messages, awaited on deadlines. */
class Watch {
  readonly messages: WatchRoomResponse__Output[] = [];
  status: grpc.StatusObject | undefined;
  error: GrpcCallError | undefined;
  private wake: (() => void) | undefined;
  readonly stream: grpc.ClientReadableStream<WatchRoomResponse__Output>;

  constructor(client: SvcGrpc, roomId: string, afterSeq?: number) {
    this.stream = client.watchRoom({ roomId, ...(afterSeq !== undefined ? { afterSeq } : {}) });
    this.stream.on('data', (message: WatchRoomResponse__Output) => this.push(() => this.messages.push(message)));
    this.stream.on('status', (status: grpc.StatusObject) => this.push(() => (this.status = status)));
    this.stream.on('error', (err: GrpcCallError) => this.push(() => (this.error = err)));
  }

  private push(change: () => void): void {
    change();
    this.wake?.();
  }

  async until<T>(what: string, probe: () => T | undefined): Promise<T> {
    return withDeadline(
      (async () => {
        for (;;) {
          const found = probe();
          if (found !== undefined) return found;
          if (this.error) throw this.error;
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      })(),
      WAIT_MS,
      what,
    );
  }

  /** The index-th message (0-based). */
  nth(index: number, what: string): Promise<WatchRoomResponse__Output> {
    return this.until(what, () => this.messages[index]);
  }

  events(): Array<NonNullable<WatchRoomResponse__Output['event']>> {
    return this.messages.flatMap((message) => (message.event ? [message.event] : []));
  }

  close(): void {
    this.stream.cancel();
  }
}

async function roomWithMember() {
  const owner = await g.user('owner');
  const member = await g.user('member');
  const { room } = await owner.as.rooms.CreateRoom({ name: 'Watch party', visibility: 'ROOM_VISIBILITY_HIDDEN' });
  await member.as.rooms.JoinRoom({ roomId: room!.id });
  return { owner, member, roomId: room!.id };
}

test('a watch starts with a snapshot and then carries live events in seq order', async (t) => {
  const { owner, member, roomId } = await roomWithMember();
  const watch = new Watch(member.as, roomId);
  const first = await watch.nth(0, 'the snapshot');
  t.is(first.message, 'snapshot');
  const snapshot = first.snapshot!;
  t.like(snapshot, { room: { id: roomId }, me: { userId: member.member.userId, status: 'MEMBER_STATUS_ACTIVE' } });
  t.true(snapshot.members!.members.some((m) => m.userId === member.member.userId && m.online), 'the watch makes the member present');

  const pushed = (await owner.as.playlist.Push({ roomId, title: 'Sintel', url: 'https://media.example.com/sintel.mp4' })).item!;
  const said = (await owner.as.chat.Send({ roomId, text: 'popcorn ready?' })).message!;
  const added = await watch.until('the playlist event', () => watch.events().find((e) => e.event === 'playlist'));
  t.like(added, { playlist: { op: 'added', added: { index: 0, item: { id: pushed.id, title: 'Sintel' } } } });
  const chat = await watch.until('the chat event', () => watch.events().find((e) => e.event === 'chatMessage'));
  t.like(chat.chatMessage, { message: { id: said.id, text: 'popcorn ready?', userId: owner.member.userId } });
  await owner.as.playlist.SetCurrent({ roomId, mediaId: pushed.id });
  await owner.as.playback.Play({ roomId });
  const play = await watch.until('the play event', () => watch.events().find((e) => e.event === 'playback' && e.playback!.playback!.playing));
  t.like(play.playback, { cause: 'PLAYBACK_CAUSE_PLAYBACK_PLAY', by: owner.member.userId, playback: { mediaId: pushed.id } });

  const seqs = watch.events().map((e) => e.seq);
  t.true(seqs.every((seq, i) => seq > (i === 0 ? snapshot.seq : seqs[i - 1]!)), `seqs rise above the snapshot: ${snapshot.seq} ${seqs.join(',')}`);
  t.true(watch.events().every((e) => e.at > 0));
  watch.close();
});

test('a watch resumed from a seq gets exactly the missed events, then live ones', async (t) => {
  const { owner, member, roomId } = await roomWithMember();
  // A second watch keeps this gateway subscribed while the member is away, as another socket would.
  const keeper = new Watch(owner.as, roomId);
  await keeper.nth(0, "the owner's snapshot");
  const watch = new Watch(member.as, roomId);
  const snapshot = (await watch.nth(0, 'the snapshot')).snapshot!;
  await owner.as.chat.Send({ roomId, text: 'seen live' });
  const live = await watch.until('the live message', () => watch.events().find((e) => e.chatMessage?.message?.text === 'seen live'));
  t.true(live.seq > snapshot.seq);
  watch.close();

  // Missed while away: three messages.
  const missed: string[] = [];
  for (const text of ['missed 1', 'missed 2', 'missed 3']) missed.push((await owner.as.chat.Send({ roomId, text })).message!.id);
  await keeper.until('the last missed message at the gateway', () => keeper.events().find((e) => e.chatMessage?.message?.id === missed[2]));

  const resumed = new Watch(member.as, roomId, live.seq);
  const head = await resumed.nth(0, 'the resume marker');
  t.is(head.message, 'resumed');
  t.is(head.resumed!.fromSeq, live.seq);
  await resumed.until('the missed messages', () => (resumed.events().filter((e) => e.chatMessage).length >= 3 ? true : undefined));
  await owner.as.chat.Send({ roomId, text: 'after the resume' });
  await resumed.until('the live message after the resume', () => resumed.events().find((e) => e.chatMessage?.message?.text === 'after the resume'));

  const texts = resumed.events().flatMap((e) => (e.chatMessage ? [e.chatMessage.message!.text] : []));
  t.deepEqual(texts, ['missed 1', 'missed 2', 'missed 3', 'after the resume'], 'no loss, no duplicate, nothing seen before');
  t.false(resumed.messages.some((m) => m.snapshot));
  const seqs = resumed.events().map((e) => e.seq);
  t.true(seqs.every((seq, i) => seq > (i === 0 ? live.seq : seqs[i - 1]!)));
  t.true(resumed.events().every((e) => e.seq > live.seq));
  t.true(seqs.some((seq) => seq <= head.resumed!.seq), 'the missed events end at the marked seq');
  resumed.close();

  // A seq the gateway cannot vouch for gets a snapshot instead.
  const stale = new Watch(member.as, roomId, 1);
  t.is((await stale.nth(0, 'the fallback snapshot')).message, 'snapshot');
  stale.close();
  keeper.close();
});

test('a kick ends the watch with its reason and status OK; strangers and bad ids are refused', async (t) => {
  const { owner, member, roomId } = await roomWithMember();
  const watch = new Watch(member.as, roomId);
  await watch.nth(0, 'the snapshot');
  await owner.as.members.Kick({ roomId, userId: member.member.userId });
  const ended = await watch.until('the end of the watch', () => watch.messages.find((m) => m.ended));
  t.like(ended.ended, { reason: 'WATCH_END_REASON_KICKED' });
  t.regex(ended.ended!.message, /removed/);
  const status = await watch.until('the final status', () => watch.status);
  t.is(status.code, grpc.status.OK);
  t.is(watch.error, undefined);

  const stranger = await g.user('stranger');
  const refusedWatch = new Watch(stranger.as, roomId);
  const err = await withDeadline(
    new Promise<GrpcCallError>((resolve) => refusedWatch.stream.once('error', resolve)),
    WAIT_MS,
    'the refusal',
  );
  t.is(err.code, 'forbidden');
  t.is(err.grpcStatus, grpc.status.PERMISSION_DENIED);
  await refused(
    t,
    new Promise((resolve, reject) => {
      const bad = g.client.watchRoom({ roomId: 'no spaces allowed' }, { token: stranger.member.token });
      bad.on('data', resolve);
      bad.on('error', reject);
    }),
    'invalid_argument',
    grpc.status.INVALID_ARGUMENT,
  );
  await refused(
    t,
    new Promise((resolve, reject) => {
      const anonymous = g.client.watchRoom({ roomId });
      anonymous.on('data', resolve);
      anonymous.on('error', reject);
    }),
    'unauthenticated',
    grpc.status.UNAUTHENTICATED,
  );
});
