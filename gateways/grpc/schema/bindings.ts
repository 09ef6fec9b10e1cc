/**
 * Which contract schemas are gRPC messages and enums, and under which names: the one table the
 * generated `.proto` files are made from (with the field lock). A field is never named here: a
 * field added to a bound view (contracts/room/model.ts) or event (contracts/room/events.ts)
 * reaches its message by itself. A new view or event is one row; an object, enum or record
 * inside a view that no row binds fails the build, naming the field, and so does an event that
 * RoomEvent neither carries nor skips.
 *
 * Besides views, three kinds of message have no schema of their own: a list wrapper (an optional
 * list that must say "absent" apart from "empty", `MemberList { repeated Member members }`), an
 * entry (a record's key and value, `Header { name, value }`: protobuf maps trip common
 * reflection clients, see reflection.ts) and an envelope (`RoomEvent`: a seq, then any event).
 * Enums not bound here (permission and reaction names, subtitle formats) travel as strings, so
 * their sets can grow without a proto change.
 */
import type { z } from 'zod';
import * as events from '../../../contracts/room/events.js';
import * as model from '../../../contracts/room/model.js';
import { WordFilter, WordFilterMode } from '../../../contracts/room/moderation.js';
import { Subtitle } from '../../../contracts/room/subtitles.js';
import * as reach from '../../../contracts/room/reach.js';
import { EventMessage } from '../../../contracts/ws/protocol.js';
import type { ProtoType } from './proto-model.js';

/** A view: an object schema, or a discriminated union of bound objects (a message with a oneof named by its discriminator). */
export interface ViewBinding {
  kind: 'view';
  name: string;
  schema: z.ZodObject | z.ZodDiscriminatedUnion;
}

export interface ListBinding {
  kind: 'list';
  name: string;
  field: string;
  item: ProtoType;
  comment: string;
}

export interface EntryBinding {
  kind: 'entry';
  name: string;
  key: string;
  value: string;
  comment: string;
}

/**
 * A stream's message that carries any option of a discriminated union (`RoomEvent`): the fields
 * of `head` (`seq`, `at`), then a oneof with one member per option, each the message bound to
 * that option. A member keeps the name the lock gives its message; a new option's member is
 * named after its discriminator value (`queue.votes` -> `queue_votes`). An option no row binds
 * fails the build unless `skip` names it (the message does not carry it).
 */
export interface EnvelopeBinding {
  kind: 'envelope';
  name: string;
  comment: string;
  head: z.ZodObject;
  oneof: string;
  union: z.ZodDiscriminatedUnion;
  skip: readonly string[];
}

export type MessageBinding = ViewBinding | ListBinding | EntryBinding | EnvelopeBinding;

/** One proto enum: the union of the values of its schemas (a wider one may stand for a narrower one). */
export interface EnumBinding {
  name: string;
  schemas: readonly z.ZodEnum[];
  comment?: string;
}

export interface FileBinding {
  path: string;
  package: string;
  comment: string;
  sources: readonly string[];
  /** Other generated files whose messages or enums this one names. */
  imports: readonly string[];
  enums: readonly EnumBinding[];
  messages: readonly MessageBinding[];
}

const view = (name: string, schema: ViewBinding['schema']): ViewBinding => ({ kind: 'view', name, schema });

export const ROOM_PROTO: FileBinding = {
  path: 'svc/v1/room.proto',
  package: 'svc.v1',
  comment:
    "The room as the room actor shows it: the views of every transport. Field names are the actor's, in snake_case, so the JSON " +
    "(and the generated TypeScript) names are its camelCase ones. Times are server milliseconds since the epoch; positions are " +
    'seconds. A null or absent contract value is an absent field.',
  sources: ['contracts/room/model.ts', 'contracts/room/subtitles.ts', 'contracts/room/moderation.ts', 'contracts/room/reach.ts'],
  imports: [],
  enums: [
    { name: 'RoomVisibility', schemas: [model.RoomVisibility] },
    { name: 'RoomStatus', schemas: [model.RoomStatus], comment: 'pending_review: waits for a reviewer (runtime setting room.createRoomNeedReview); only its owner sees it.' },
    { name: 'RoomRole', schemas: [model.RoomRole] },
    { name: 'MemberStatus', schemas: [model.MemberStatus, model.MyStanding.shape.status], comment: 'pending: a join request waiting for approval; none (only in MyStanding): a visitor who never joined, or left.' },
    { name: 'QueueMode', schemas: [model.QueueMode] },
    { name: 'PlayerState', schemas: [model.PlayerState] },
    { name: 'MediaSeekable', schemas: [model.Seekable] },
    { name: 'MediaReachHow', schemas: [reach.ReachHow], comment: 'direct: plays as is; remux: container changed; audio: audio converted; video: video converted.' },
    { name: 'StreamTreatment', schemas: [reach.StreamTreatment] },
    { name: 'BlockerKind', schemas: [reach.Blocker.shape.kind] },
    { name: 'HdrTransfer', schemas: [reach.SourceFacts.shape.hdr.unwrap()] },
    { name: 'WordFilterMode', schemas: [WordFilterMode], comment: 'What the word filter does with a message containing a listed word: star the word out (mask), or refuse the message (block).' },
  ],
  messages: [
    { kind: 'list', name: 'PermissionList', field: 'permissions', item: 'string', comment: 'Names of room permissions (docs/2026-11-21-permissions.md), for example "send_chat".' },
    view('PermissionOverrides', model.PermissionOverrides),
    view('RoomInfo', model.RoomInfo),
    view('RoomPreview', model.RoomPreview),
    view('PlayerReport', model.MemberView.shape.player.unwrap()),
    view('Member', model.MemberView),
    view('MemberPermissionOverride', model.MemberPermissionOverride),
    { kind: 'list', name: 'MemberList', field: 'members', item: 'Member', comment: 'Members, where absent and empty differ.' },
    view('Subtitle', Subtitle),
    { kind: 'entry', name: 'Header', key: 'name', value: 'value', comment: 'One HTTP request header of a media item; names are unique within an item.' },
    view('ReachBlocker', reach.Blocker),
    view('ImageSubtitle', reach.ImageSubtitle),
    view('SourceFacts', reach.SourceFacts),
    view('MediaReach', reach.MediaReach),
    view('MediaItem', model.MediaItem),
    view('PlaylistFolder', model.PlaylistFolder),
    view('NowPlaying', model.NowPlaying),
    { kind: 'list', name: 'MediaList', field: 'items', item: 'MediaItem', comment: 'Playlist items, where absent and empty differ.' },
    view('ReadyWait', model.ReadyWait),
    view('Playback', model.PlaybackView),
    view('ChatMessage', model.ChatMessage),
    view('ChatReplyTo', model.ChatReplyTo),
    view('ChatReaction', model.ChatReaction),
    view('DanmakuComment', model.DanmakuComment),
    view('MyStanding', model.MyStanding),
    view('Headcount', model.Headcount),
    view('MemberRoomView', model.MemberRoomView),
    view('QueueVotes', model.QueueVotes),
    view('Poll', model.Poll),
    view('VoteSkip', model.VoteSkip),
    view('VoiceParticipant', model.VoiceParticipant),
    view('StageShare', model.StageShare),
    view('VisitorRoomView', model.VisitorRoomView),
    view('RoomView', model.RoomView),
    view('WordFilter', WordFilter),
  ],
};

/** What WatchRoom streams: an event with its seq (the WebSocket gateway's `event` frame, contracts/ws/protocol.ts). */
export const ROOM_EVENT: EnvelopeBinding = {
  kind: 'envelope',
  name: 'RoomEvent',
  comment:
    "One room event and its place in the room's sequence. Voice events and call mutes are not carried: voice is signalled over the WebSocket " +
    'gateway and the call runs in the SFU, and a watcher sees a gap in seq where one was.',
  head: EventMessage.pick({ seq: true, at: true }),
  oneof: 'event',
  union: events.RoomEvent,
  skip: ['voice.joined', 'voice.left', 'voice.muted', 'voice.signal', 'call.muted', 'room.activated'],
};

export const EVENTS_PROTO: FileBinding = {
  path: 'svc/v1/events.proto',
  package: 'svc.v1',
  comment:
    'Room events as typed messages, one per event type, and RoomEvent, which carries one with its seq on the WatchRoom stream. ' +
    "Field names are the event's, in snake_case. A null or absent contract value is an absent field.",
  sources: ['contracts/room/events.ts', 'contracts/ws/protocol.ts'],
  imports: [ROOM_PROTO.path],
  enums: [
    { name: 'PlaybackCause', schemas: [events.PlaybackCause] },
    { name: 'MemberLeftReason', schemas: [events.MemberLeftReason] },
    { name: 'StageStopReason', schemas: [events.StageStopReason] },
  ],
  messages: [
    view('RoomUpdated', events.RoomUpdated),
    view('RoomDeleted', events.RoomDeleted),
    view('MemberJoined', events.MemberJoined),
    view('MemberRequested', events.MemberRequested),
    view('MemberLeft', events.MemberLeft),
    view('MemberUpdated', events.MemberUpdated),
    view('MemberBanned', events.MemberBanned),
    view('MemberUnbanned', events.MemberUnbanned),
    view('HeadcountChanged', events.HeadcountChanged),
    view('PlaybackChanged', events.PlaybackChanged),
    view('PlaylistAdded', events.PlaylistAdded),
    view('PlaylistMoved', events.PlaylistMoved),
    view('PlaylistRemoved', events.PlaylistRemoved),
    view('PlaylistCleared', events.PlaylistCleared),
    view('PlaylistEdited', events.PlaylistEdited),
    view('PlaylistFolderAdded', events.PlaylistFolderAdded),
    view('PlaylistFolderRenamed', events.PlaylistFolderRenamed),
    view('PlaylistFolderMoved', events.PlaylistFolderMoved),
    view('PlaylistFolderRemoved', events.PlaylistFolderRemoved),
    view('PlaylistChanged', events.PlaylistEvent),
    view('ChatMessagePosted', events.ChatMessagePosted),
    view('ChatMessageDeleted', events.ChatMessageDeleted),
    view('ChatMessageEdited', events.ChatMessageEdited),
    view('ChatMessagePinned', events.ChatMessagePinned),
    view('ChatReactionsChanged', events.ChatReactionsChanged),
    view('VideoReaction', events.VideoReaction),
    view('DanmakuPosted', events.DanmakuPosted),
    view('LiveStatusChanged', events.LiveStatusChanged),
    view('MediaChecked', events.MediaChecked),
    view('VoteSkipChanged', events.VoteSkipChanged),
    view('PollChanged', events.PollChanged),
    view('QueueVotesChanged', events.QueueVotesChanged),
    view('WordFilterChanged', events.WordFilterChanged),
    view('StageStarted', events.StageStarted),
    view('StageStopped', events.StageStopped),
    ROOM_EVENT,
  ],
};

/** Every generated file, in dependency order (the others under proto/ are written by hand: services and requests). */
export const GENERATED_PROTOS: readonly FileBinding[] = [ROOM_PROTO, EVENTS_PROTO];

/** The message a view schema is generated as (`MemberView` -> `Member`). */
export function messageNameOf(schema: z.ZodType): string {
  for (const file of GENERATED_PROTOS) {
    for (const binding of file.messages) if (binding.kind === 'view' && binding.schema._zod.def === schema._zod.def) return binding.name;
  }
  throw new Error('no message is generated from this schema (gateways/grpc/schema/bindings.ts)');
}

/** The proto enum a contract enum is generated as (`Seekable` -> `MediaSeekable`). */
export function enumNameOf(schema: z.ZodEnum): string {
  for (const file of GENERATED_PROTOS) {
    for (const binding of file.enums) if (binding.schemas.some((bound) => bound._zod.def === schema._zod.def)) return binding.name;
  }
  throw new Error('no proto enum is generated from this schema (gateways/grpc/schema/bindings.ts)');
}

/**
 * The message each option of an envelope's union is carried as, by discriminator value
 * (`room.updated` -> `RoomUpdated`); null for an option the envelope skips.
 */
export function envelopeOptions(binding: EnvelopeBinding): ReadonlyMap<string, string | null> {
  const options = new Map<string, string | null>();
  for (const option of binding.union.options as readonly z.ZodType[]) {
    for (const value of discriminatorValues(option, binding.union.def.discriminator)) options.set(value, binding.skip.includes(value) ? null : messageNameOf(option));
  }
  return options;
}

/** The values a union option declares for the discriminator (one for an object, one or more for a nested union). */
export function discriminatorValues(option: z.ZodType, discriminator: string): string[] {
  const values = (option._zod as { propValues?: Record<string, Set<unknown>> }).propValues?.[discriminator];
  return [...(values ?? [])].filter((value): value is string => typeof value === 'string');
}
