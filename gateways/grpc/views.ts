/**
 * The room's views and events as the API's messages. A view is encoded by walking the message
 * generated from its contract (`encode.ts`, `schema/`), so no field is named here: what is
 * written here is which contract each encoder takes and which generated type it answers, and the
 * enum tables requests are read with. An event is encoded the same way, as the member of
 * `RoomEvent` that holds the message generated from its schema.
 */
import type { z } from 'zod';
import type { RoomEvent as ContractEvent, RoomEventType } from '../../contracts/room/events.js';
import * as model from '../../contracts/room/model.js';
import { WordFilter as WordFilterSchema, WordFilterMode } from '../../contracts/room/moderation.js';
import type { ChatMessage } from './gen/svc/v1/ChatMessage.js';
import type { ChatReaction } from './gen/svc/v1/ChatReaction.js';
import type { DanmakuComment } from './gen/svc/v1/DanmakuComment.js';
import type { MediaItem } from './gen/svc/v1/MediaItem.js';
import type { Member } from './gen/svc/v1/Member.js';
import type { MemberRoomView } from './gen/svc/v1/MemberRoomView.js';
import type { Playback } from './gen/svc/v1/Playback.js';
import type { PlaylistFolder } from './gen/svc/v1/PlaylistFolder.js';
import type { Poll } from './gen/svc/v1/Poll.js';
import type { QueueVotes } from './gen/svc/v1/QueueVotes.js';
import type { RoomEvent } from './gen/svc/v1/RoomEvent.js';
import type { RoomInfo } from './gen/svc/v1/RoomInfo.js';
import type { RoomView } from './gen/svc/v1/RoomView.js';
import type { VoteSkip } from './gen/svc/v1/VoteSkip.js';
import type { WordFilter } from './gen/svc/v1/WordFilter.js';
import { apiEncoders } from './proto.js';
import { envelopeOptions, enumNameOf, messageNameOf, ROOM_EVENT } from './schema/bindings.js';
import { enumNames } from './schema/proto-model.js';

type Plain = Record<string, unknown>;

/** `encoder(model.RoomInfo).to<RoomInfo>()`: the contract's value in, the generated message's type out. */
function encoder<S extends z.ZodType>(schema: S): { to<Out>(): (value: z.output<S>) => Out } {
  const message = messageNameOf(schema);
  return {
    to: <Out>() => {
      let encode: ((value: Plain) => Plain) | undefined;
      return (value: z.output<S>) => (encode ??= apiEncoders().message(message))(value as Plain) as Out;
    },
  };
}

export const roomInfo = encoder(model.RoomInfo).to<RoomInfo>();
export const member = encoder(model.MemberView).to<Member>();
export const mediaItem = encoder(model.MediaItem).to<MediaItem>();
export const playlistFolder = encoder(model.PlaylistFolder).to<PlaylistFolder>();
export const playback = encoder(model.PlaybackView).to<Playback>();
export const chatMessage = encoder(model.ChatMessage).to<ChatMessage>();
export const chatReaction = encoder(model.ChatReaction).to<ChatReaction>();
export const danmakuComment = encoder(model.DanmakuComment).to<DanmakuComment>();
export const poll = encoder(model.Poll).to<Poll>();
export const queueVotes = encoder(model.QueueVotes).to<QueueVotes>();
export const voteSkip = encoder(model.VoteSkip).to<VoteSkip>();
export const wordFilter = encoder(WordFilterSchema).to<WordFilter>();
export const memberRoomView = encoder(model.MemberRoomView).to<MemberRoomView>();
export const roomView = encoder(model.RoomView).to<RoomView>();

/**
 * An RPC's answer made from a room result of the same shape, field for field (`{status, member}`
 * -> `JoinRoomResponse`), by the same walk as the views.
 */
export function answer<Out>(message: string): (result: object) => Out {
  let encode: ((value: Plain) => Plain) | undefined;
  return (result) => (encode ??= apiEncoders().message(message))(result as Plain) as Out;
}

/** Contract value -> proto name, for the enums requests carry (`public` -> `ROOM_VISIBILITY_PUBLIC`). */
const protoEnum = <T extends Readonly<Record<string, string>>>(schema: z.ZodEnum<T>) => enumNames(enumNameOf(schema), schema.options);
export const VISIBILITY = protoEnum(model.RoomVisibility);
export const ROLE = protoEnum(model.RoomRole);
export const PLAYER_STATE = protoEnum(model.PlayerState);
export const QUEUE_MODE = protoEnum(model.QueueMode);
export const WORD_FILTER_MODE = protoEnum(WordFilterMode);

/**
 * The member of `RoomEvent`'s oneof each event type is: the one holding the message its schema is
 * generated as (schema/bindings.ts); null for voice events, which gRPC does not carry (voice is
 * signalled over the WebSocket gateway; a watcher sees a seq gap).
 */
let eventMembers: ReadonlyMap<string, string | null> | undefined;
function eventMember(type: RoomEventType): string | null {
  eventMembers ??= new Map(
    [...envelopeOptions(ROOM_EVENT)].map(([value, message]) => [value, message === null ? null : apiEncoders().oneofMember(ROOM_EVENT.name, ROOM_EVENT.oneof, message)]),
  );
  const member = eventMembers.get(type);
  if (member === undefined) throw new Error(`${type} is no option of the RoomEvent contract`);
  return member;
}

/** One room event with its seq and publication time; null for the events gRPC does not carry. */
export function roomEvent(event: ContractEvent, seq: number, at: number): RoomEvent | null {
  const member = eventMember(event.type);
  if (member === null) return null;
  return { seq, at, [member]: apiEncoders().member(ROOM_EVENT.name, member)(event) };
}
