/**
 * One room scenario (create, join, playlist, playback, chat, kick), written once against a
 * transport-neutral driver and run over every client transport (`transports.test.ts`), so the
 * HTTP + WebSocket API and the gRPC API cannot drift apart.
 */
import type { ExecutionContext } from 'ava';
import type { ChatMessage, PlaybackView, RoomEvent } from '../../../actors/room/index.js';
import type { Member } from '../bed.js';

export interface SeqEvent {
  seq: number;
  event: RoomEvent;
}

/** A member's live view of a room (a socket, a stream), from after its start. */
export interface EventStream {
  /** The first event from now on (or already received and not yet taken) that matches. */
  next(what: string, match: (event: RoomEvent) => boolean): Promise<SeqEvent>;
  /** Resolves with the server's reason when the server ends the stream. */
  ended(): Promise<string>;
  close(): Promise<void>;
}

/** A refused command rejects with an error carrying the stable error code. */
export interface RoomTransport {
  readonly name: string;
  createRoom(as: Member, name: string): Promise<string>;
  join(as: Member, roomId: string): Promise<void>;
  watch(as: Member, roomId: string): Promise<EventStream>;
  push(as: Member, roomId: string, media: { title: string; url: string }): Promise<string>;
  setCurrent(as: Member, roomId: string, mediaId: string): Promise<void>;
  play(as: Member, roomId: string): Promise<Pick<PlaybackView, 'playing' | 'position' | 'mediaId'>>;
  seek(as: Member, roomId: string, position: number): Promise<Pick<PlaybackView, 'playing' | 'position' | 'mediaId'>>;
  pause(as: Member, roomId: string): Promise<Pick<PlaybackView, 'playing' | 'position' | 'mediaId'>>;
  chat(as: Member, roomId: string, text: string): Promise<Pick<ChatMessage, 'id' | 'text' | 'userId'>>;
  history(as: Member, roomId: string): Promise<Array<Pick<ChatMessage, 'id' | 'text' | 'userId'>>>;
  kick(as: Member, roomId: string, userId: string): Promise<void>;
}

export async function roomScenario(t: ExecutionContext, transport: RoomTransport, owner: Member, member: Member): Promise<void> {
  const roomId = await transport.createRoom(owner, `Scenario over ${transport.name}`);
  await transport.join(member, roomId);
  const [ownerStream, memberStream] = [await transport.watch(owner, roomId), await transport.watch(member, roomId)];
  const seqs: number[] = [];
  const seen = async (what: string, match: (event: RoomEvent) => boolean): Promise<RoomEvent> => {
    const { seq, event } = await memberStream.next(what, match);
    seqs.push(seq);
    return event;
  };

  // Playlist: an item pushed by the owner reaches the member.
  const mediaId = await transport.push(owner, roomId, { title: 'Big Buck Bunny', url: 'https://media.example.com/bbb.mp4' });
  const added = await seen('the playlist item', (event) => event.type === 'playlist' && event.op === 'added');
  t.like(added, { type: 'playlist', op: 'added', item: { id: mediaId, title: 'Big Buck Bunny', url: 'https://media.example.com/bbb.mp4' } });

  // Playback: set current, play, seek, pause all reach the member with the room's state.
  await transport.setCurrent(owner, roomId, mediaId);
  await seen('the media cued', (event) => event.type === 'playback' && event.playback.mediaId === mediaId);
  t.like(await transport.play(owner, roomId), { playing: true, mediaId });
  t.like(await seen('play', (event) => event.type === 'playback' && event.playback.playing), { cause: 'playback.play' });
  const seeked = await transport.seek(owner, roomId, 120);
  t.true(seeked.position >= 120 && seeked.position < 125);
  const seekEvent = await seen('the seek', (event) => event.type === 'playback' && event.cause === 'playback.seek');
  t.true(seekEvent.type === 'playback' && seekEvent.playback.position >= 120);
  t.like(await transport.pause(owner, roomId), { playing: false });
  await seen('the pause', (event) => event.type === 'playback' && !event.playback.playing);

  // Chat: the member's message reaches the owner live and is in the history.
  const message = await transport.chat(member, roomId, 'hello from the member');
  const heard = await ownerStream.next('the chat message', (event) => event.type === 'chat.message');
  t.like(heard.event, { type: 'chat.message', message: { id: message.id, text: 'hello from the member', userId: member.userId } });
  await seen('their own chat message', (event) => event.type === 'chat.message');
  t.true((await transport.history(owner, roomId)).some((entry) => entry.id === message.id && entry.text === 'hello from the member'));

  // Seqs only increase on a stream.
  t.deepEqual([...seqs].sort((a, b) => a - b), seqs);
  t.is(new Set(seqs).size, seqs.length);

  // Kick: the member's stream ends with the reason, and their next command is refused.
  await transport.kick(owner, roomId, member.userId);
  t.regex(await memberStream.ended(), /kick|removed/i);
  const refused = await transport.chat(member, roomId, 'still here?').then(
    () => undefined,
    (err: { code?: string }) => err,
  );
  t.is(refused?.code, 'forbidden');
  await ownerStream.close();
}
