/**
 * A contract value as a gRPC message, for any message: walks the message's descriptor and the
 * value together, so a field added to a contract (and so to its generated message) is carried
 * with no code here. The rules are the ones the generator made the messages by
 * (schema/proto-model.ts):
 *
 * - a field has the contract's name (proto-loader's camelCase); null or undefined: left unset;
 * - an enum value `pending_review` of `RoomStatus` is `ROOM_STATUS_PENDING_REVIEW`;
 * - a list where the message has a wrapper (`MemberList { repeated Member members }`) is wrapped;
 * - a record where the field is a repeated entry (`Header { name, value }`) becomes entries, in
 *   the record's order;
 * - a oneof whose name is a key of the value (`access`, `op`) takes the member that key names,
 *   made from the whole value (`{access: 'member', ...}` -> `{member: {...}}`).
 *
 * Each message's encoder is built once from its descriptor and kept.
 */
import protobuf from 'protobufjs';
import { enumValueName } from './schema/proto-model.js';

type Plain = Record<string, unknown>;
type Encode = (value: unknown) => unknown;

export class MessageEncoders {
  private readonly built = new Map<protobuf.Type, (value: Plain) => Plain>();

  constructor(private readonly api: protobuf.Namespace) {}

  /** The encoder of message `name` of the API package (`RoomInfo`). */
  message(name: string): (value: Plain) => Plain {
    return this.of(this.api.lookupType(name));
  }

  /** The encoder of the message a oneof member of `message` holds (`RoomEvent`, `roomUpdated`). */
  member(message: string, field: string): (value: Plain) => Plain {
    const type = this.api.lookupType(message).fields[field]?.resolvedType;
    if (!(type instanceof protobuf.Type)) throw new Error(`${message}.${field} is not a message field`);
    return this.of(type);
  }

  /** The member of oneof `oneof` of `message` that holds message `type` (`RoomEvent`, `event`, `WordFilterChanged` -> `wordFilter`). */
  oneofMember(message: string, oneof: string, type: string): string {
    const owner = this.api.lookupType(message);
    owner.resolveAll();
    const member = owner.oneofs[oneof]?.fieldsArray.find((field) => field.resolvedType?.name === type);
    if (!member) throw new Error(`no member of ${message}.${oneof} holds ${type}`);
    return member.name;
  }

  private of(type: protobuf.Type): (value: Plain) => Plain {
    let encode = this.built.get(type);
    if (!encode) {
      // Registered before it is built, so a message that holds itself resolves to this entry.
      let compiled: ((value: Plain) => Plain) | undefined;
      encode = (value) => (compiled ??= this.compile(type))(value);
      this.built.set(type, encode);
    }
    return encode;
  }

  private compile(type: protobuf.Type): (value: Plain) => Plain {
    type.resolveAll();
    const fields = type.fieldsArray
      .filter((field) => !field.partOf || isPresenceOneof(field.partOf))
      .map((field) => ({ name: field.name, encode: this.field(field) }));
    const oneofs = type.oneofsArray
      .filter((oneof) => !isPresenceOneof(oneof))
      .map((oneof) => ({
        name: oneof.name,
        members: new Map(oneof.fieldsArray.map((field) => [field.name, this.field(field)])),
      }));
    return (value) => {
      const out: Plain = {};
      for (const { name, encode } of fields) {
        const inner = value[name];
        if (inner !== undefined && inner !== null) out[name] = encode(inner);
      }
      for (const { name, members } of oneofs) {
        const chosen = value[name];
        const encode = typeof chosen === 'string' ? members.get(chosen) : undefined;
        if (encode) {
          out[chosen as string] = encode(value);
          out[name] = chosen;
        }
      }
      return out;
    };
  }

  private field(field: protobuf.Field): Encode {
    const one = this.single(field);
    if (!field.repeated) return one;
    const type = field.resolvedType;
    const entry = type instanceof protobuf.Type && type.fieldsArray.length === 2 ? type.fieldsArray : undefined;
    return (value) => {
      if (Array.isArray(value)) return value.map(one);
      if (entry && typeof value === 'object') {
        const [key, inner] = entry as [protobuf.Field, protobuf.Field];
        return Object.entries(value as Plain).map(([name, item]) => ({ [key.name]: name, [inner.name]: item }));
      }
      throw new Error(`${field.fullName}: expected a list${entry ? ' or a record' : ''}`);
    };
  }

  /** One value of the field's type. */
  private single(field: protobuf.Field): Encode {
    const type = field.resolvedType;
    if (type instanceof protobuf.Enum) {
      return (value) => {
        const name = enumValueName(type.name, String(value));
        if (type.values[name] === undefined) throw new Error(`${field.fullName}: ${String(value)} is no value of ${type.name}`);
        return name;
      };
    }
    if (type instanceof protobuf.Type) {
      const encode = this.of(type);
      const list = type.fieldsArray.length === 1 && type.fieldsArray[0]!.repeated ? type.fieldsArray[0]! : undefined;
      if (!list) return (value) => encode(value as Plain);
      return (value) => encode(Array.isArray(value) ? { [list.name]: value } : (value as Plain));
    }
    return (value) => value;
  }
}

/** The oneof protobuf makes for a proto3 `optional` field (`_mediaId`): presence, not a choice. */
function isPresenceOneof(oneof: protobuf.OneOf): boolean {
  return oneof.fieldsArray.length === 1 && oneof.fieldsArray[0]!.options?.proto3_optional === true;
}
