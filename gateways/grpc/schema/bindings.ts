/**
 * Which contract schemas are gRPC messages and enums, and under which names: the one table the
 * generated `.proto` files are made from (with the field lock). A field is never named here: a
 * field added to a bound view (contracts/room/model.ts) reaches its message by itself. A new
 * view is one row; an object, enum or record inside a view that no row binds fails the build,
 * naming the field.
 *
 * Besides views, two kinds of message have no schema of their own: a list wrapper (an optional
 * list that must say "absent" apart from "empty", `MemberList { repeated Member members }`) and
 * an entry (a record's key and value, `Header { name, value }`: protobuf maps trip common
 * reflection clients, see reflection.ts). Enums not bound here (permission and reaction names,
 * subtitle formats) travel as strings, so their sets can grow without a proto change.
 */
import type { z } from 'zod';
import * as model from '../../../contracts/room/model.js';
import { WordFilter, WordFilterMode } from '../../../contracts/room/moderation.js';
import { Subtitle } from '../../../contracts/room/subtitles.js';
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

export type MessageBinding = ViewBinding | ListBinding | EntryBinding;

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
  sources: ['contracts/room/model.ts', 'contracts/room/subtitles.ts', 'contracts/room/moderation.ts'],
  enums: [
    { name: 'RoomVisibility', schemas: [model.RoomVisibility] },
    { name: 'RoomStatus', schemas: [model.RoomStatus], comment: 'pending_review: waits for a reviewer (runtime setting room.createRoomNeedReview); only its owner sees it.' },
    { name: 'RoomRole', schemas: [model.RoomRole] },
    { name: 'MemberStatus', schemas: [model.MemberStatus, model.MyStanding.shape.status], comment: 'pending: a join request waiting for approval; none (only in MyStanding): a visitor who never joined, or left.' },
    { name: 'QueueMode', schemas: [model.QueueMode] },
    { name: 'PlayerState', schemas: [model.PlayerState] },
    { name: 'MediaSeekable', schemas: [model.Seekable] },
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
    view('MemberRoomView', model.MemberRoomView),
    view('QueueVotes', model.QueueVotes),
    view('Poll', model.Poll),
    view('VoteSkip', model.VoteSkip),
    view('VoiceParticipant', model.VoiceParticipant),
    view('VisitorRoomView', model.VisitorRoomView),
    view('RoomView', model.RoomView),
    view('WordFilter', WordFilter),
  ],
};

/** Every generated file (the others under proto/ are written by hand: services and requests). */
export const GENERATED_PROTOS: readonly FileBinding[] = [ROOM_PROTO];

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
