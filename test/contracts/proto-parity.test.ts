/**
 * The gRPC messages of proto/svc/v1/room.proto say what the room model says
 * (contracts/room/model.ts): every field of a view is a field of its message and the other way
 * round, and every enum has one value per member of the schema's enum. A field added to one side
 * only fails here, before a gRPC client silently misses it.
 */
import test from 'ava';
import { fileURLToPath } from 'node:url';
import protobuf from 'protobufjs';
import { z } from 'zod';
import * as model from '../../contracts/room/model.js';
import { WORD_FILTER_MODES, WordFilter } from '../../contracts/room/moderation.js';

const PROTO_ROOT = fileURLToPath(new URL('../../../proto/', import.meta.url));

function loadRoomProto(): protobuf.Namespace {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => (target.startsWith('svc/') ? PROTO_ROOT + target : target);
  root.loadSync('svc/v1/room.proto', { keepCase: false });
  return root.lookup('svc.v1') as protobuf.Namespace;
}

const proto = loadRoomProto();

function messageFields(name: string): string[] {
  return Object.keys(proto.lookupType(name).fields).sort();
}

function schemaKeys(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).sort();
}

/** Each view and the message that carries it over gRPC. */
const MESSAGES: ReadonlyArray<[string, z.ZodObject]> = [
  ['RoomInfo', model.RoomInfo],
  ['RoomPreview', model.RoomPreview],
  ['Member', model.MemberView],
  ['PlayerReport', model.MemberView.shape.player.unwrap()],
  ['Subtitle', model.Subtitle],
  ['MediaItem', model.MediaItem],
  ['NowPlaying', model.NowPlaying],
  ['ReadyWait', model.ReadyWait],
  ['Playback', model.PlaybackView],
  ['ChatMessage', model.ChatMessage],
  ['ChatReaction', model.ChatReaction],
  ['DanmakuComment', model.DanmakuComment],
  ['MyStanding', model.MyStanding],
  ['MemberRoomView', model.MemberRoomView],
  ['Headcount', model.Headcount],
  ['VisitorRoomView', model.VisitorRoomView.omit({ access: true })],
  ['VoiceParticipant', model.VoiceParticipant],
  ['VoteSkip', model.VoteSkip],
  ['Poll', model.Poll],
  ['PermissionOverrides', model.PermissionOverrides],
  ['WordFilter', WordFilter],
];

for (const [message, schema] of MESSAGES) {
  test(`message ${message} has the fields of its view`, (t) => {
    // `access` discriminates the union in JSON; gRPC says it with a oneof (RoomView.member/visitor).
    const keys = schemaKeys(schema).filter((key) => !(message === 'MemberRoomView' && key === 'access'));
    t.deepEqual(messageFields(message), keys);
  });
}

/** Each enum and its proto name; protobuf enum values are PREFIX_VALUE, with 0 left unspecified. */
const ENUMS: ReadonlyArray<[string, readonly string[]]> = [
  ['RoomVisibility', model.RoomVisibility.options],
  ['RoomStatus', model.RoomStatus.options],
  ['RoomRole', model.RoomRole.options],
  ['MemberStatus', model.MyStanding.shape.status.options],
  ['QueueMode', model.QueueMode.options],
  ['PlayerState', model.PlayerState.options],
  ['MediaSeekable', model.Seekable.options],
  ['WordFilterMode', WORD_FILTER_MODES],
];

const prefixOf = (name: string): string => name.replace(/[A-Z]/g, (c, at: number) => (at === 0 ? c : `_${c}`)).toUpperCase();

for (const [name, options] of ENUMS) {
  test(`enum ${name} has one value per member of its schema`, (t) => {
    const values = Object.keys(proto.lookupEnum(name).values).filter((value) => !value.endsWith('_UNSPECIFIED'));
    t.deepEqual(values.sort(), options.map((option) => `${prefixOf(name)}_${option.toUpperCase()}`).sort());
  });
}
