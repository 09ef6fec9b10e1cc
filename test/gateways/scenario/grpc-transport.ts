/**
 * The scenario driver over the gRPC API: unary RPCs for commands, `WatchRoom` for events.
 * Events come back as protobuf messages; `actorEvent` turns the kinds the scenario looks at
 * into the actor's shape so one scenario can judge every transport.
 */
import type { RoomEvent } from '../../../actors/room/index.js';
import { connectGrpc, type SvcGrpc } from '../../../gateways/grpc/client.js';
import type { RoomEvent__Output } from '../../../gateways/grpc/gen/svc/v1/RoomEvent.js';
import type { WatchRoomResponse__Output } from '../../../gateways/grpc/gen/svc/v1/WatchRoomResponse.js';
import type { Member } from '../bed.js';
import { EventQueue } from './event-queue.js';
import type { EventStream, RoomTransport } from './room-scenario.js';

const CAUSES: Record<string, string> = {
  PLAYBACK_CAUSE_PLAYBACK_PLAY: 'playback.play',
  PLAYBACK_CAUSE_PLAYBACK_PAUSE: 'playback.pause',
  PLAYBACK_CAUSE_PLAYBACK_SEEK: 'playback.seek',
  PLAYBACK_CAUSE_PLAYLIST_SET_CURRENT: 'playlist.setCurrent',
};

/** The actor's form of the events the scenario looks at; others keep only their kind. */
function actorEvent(event: RoomEvent__Output): RoomEvent {
  switch (event.event) {
    case 'playlist': {
      const added = event.playlist?.added;
      if (added) return { type: 'playlist', op: 'added', item: added.item as never, index: added.index };
      return { type: 'playlist', op: 'cleared' };
    }
    case 'playback': {
      const { playback, cause } = event.playback!;
      return {
        type: 'playback',
        playback: { playing: playback!.playing, position: playback!.position, mediaId: playback!.mediaId ?? null } as never,
        cause: (CAUSES[cause as string] ?? cause) as never,
        by: null,
      };
    }
    case 'chatMessage':
      return { type: 'chat.message', message: event.chatMessage!.message as never };
    default:
      return { type: `grpc.${event.event}` } as unknown as RoomEvent;
  }
}

export class GrpcTransport implements RoomTransport {
  readonly name = 'gRPC';
  private readonly client: SvcGrpc;

  constructor(address: string) {
    this.client = connectGrpc(address);
  }

  close(): void {
    this.client.close();
  }

  private as(member: Member): SvcGrpc {
    return this.client.as(member.token);
  }

  async createRoom(as: Member, name: string): Promise<string> {
    const { room } = await this.as(as).rooms.CreateRoom({ name, visibility: 'ROOM_VISIBILITY_PUBLIC' });
    return room!.id;
  }

  async join(as: Member, roomId: string): Promise<void> {
    await this.as(as).rooms.JoinRoom({ roomId });
  }

  async watch(as: Member, roomId: string): Promise<EventStream> {
    const stream = this.as(as).watchRoom({ roomId });
    const queue = new EventQueue();
    let started!: () => void;
    let failed!: (err: Error) => void;
    const start = new Promise<void>((resolve, reject) => {
      started = resolve;
      failed = reject;
    });
    stream.on('data', (message: WatchRoomResponse__Output) => {
      if (message.message === 'snapshot' || message.message === 'resumed') started();
      else if (message.message === 'event') queue.push(Number(message.event!.seq), actorEvent(message.event!));
      else if (message.message === 'ended') queue.end(message.ended!.reason);
    });
    stream.on('error', (err: Error) => {
      failed(err);
      queue.fail(err);
    });
    await start;
    return {
      next: (what, match) => queue.next(what, match),
      ended: () => queue.ended(),
      close: () => {
        stream.cancel();
        return Promise.resolve();
      },
    };
  }

  async push(as: Member, roomId: string, media: { title: string; url: string }): Promise<string> {
    const { item } = await this.as(as).playlist.Push({ roomId, ...media });
    return item!.id;
  }

  async setCurrent(as: Member, roomId: string, mediaId: string): Promise<void> {
    await this.as(as).playlist.SetCurrent({ roomId, mediaId });
  }

  async play(as: Member, roomId: string) {
    return playbackOf(await this.as(as).playback.Play({ roomId }));
  }

  async seek(as: Member, roomId: string, position: number) {
    return playbackOf(await this.as(as).playback.Seek({ roomId, position }));
  }

  async pause(as: Member, roomId: string) {
    return playbackOf(await this.as(as).playback.Pause({ roomId }));
  }

  async chat(as: Member, roomId: string, text: string) {
    const { message } = await this.as(as).chat.Send({ roomId, text });
    return message!;
  }

  async history(as: Member, roomId: string) {
    return (await this.as(as).chat.History({ roomId })).messages;
  }

  async kick(as: Member, roomId: string, userId: string): Promise<void> {
    await this.as(as).members.Kick({ roomId, userId });
  }
}

function playbackOf(response: { playback?: { playing: boolean; position: number; mediaId?: string } | null }) {
  const { playing, position, mediaId } = response.playback!;
  return { playing, position, mediaId: mediaId ?? null };
}
