/**
 * A `.proto` file as data, between the contracts it is generated from and the text it is
 * rendered to, and the naming rules both sides of the wire share: a contract field `ownerId` is
 * the proto field `owner_id` (which @grpc/proto-loader hands back as `ownerId`), a contract enum
 * value `pending_review` of `RoomStatus` is `ROOM_STATUS_PENDING_REVIEW`. The runtime encoder
 * (`../encode.ts`) and the request decoders use the same rules, so no table of names is written
 * by hand.
 */

/** A scalar proto type, or the name of a message or enum of the same package. */
export type ProtoType = string;

export const SCALARS = ['string', 'bool', 'double', 'int32', 'int64', 'uint32', 'uint64'] as const;
export type Scalar = (typeof SCALARS)[number];
export const isScalar = (type: ProtoType): type is Scalar => (SCALARS as readonly string[]).includes(type);
export const INTEGER_SCALARS: readonly Scalar[] = ['int32', 'int64', 'uint32', 'uint64'];

/**
 * How a field is present on the wire: `repeated`, `optional` (proto3 explicit presence, a
 * synthetic oneof in the descriptor), `oneof NAME` (a member of a real oneof), or plain.
 */
export type Label = 'plain' | 'repeated' | 'optional' | { oneof: string };

export interface ProtoField {
  /** The contract's (camelCase) name. */
  name: string;
  number: number;
  type: ProtoType;
  label: Label;
  comment?: string;
}

export interface ProtoMessage {
  name: string;
  comment?: string;
  fields: ProtoField[];
  /** Numbers and names of removed fields, never to be used again. */
  reserved: Record<string, number>;
}

export interface ProtoEnumValue {
  /** The contract's value (`pending_review`). */
  value: string;
  number: number;
}

export interface ProtoEnum {
  name: string;
  comment?: string;
  values: ProtoEnumValue[];
  reserved: Record<string, number>;
}

export interface ProtoFile {
  /** Relative to proto/: `svc/v1/room.proto`. */
  path: string;
  package: string;
  /** The file's own comment, under the generated-file header. */
  comment: string;
  /** Where its contracts are, for the header. */
  sources: readonly string[];
  /** Files (relative to proto/) it names messages or enums of. */
  imports: readonly string[];
  enums: ProtoEnum[];
  messages: ProtoMessage[];
}

/** `readyTimeoutMs` -> `ready_timeout_ms` (protobufjs turns it back into `readyTimeoutMs`). */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (capital) => `_${capital.toLowerCase()}`);
}

/** `RoomVisibility` -> `ROOM_VISIBILITY`, `pending_review` -> `PENDING_REVIEW`, `playback.voteSkip` -> `PLAYBACK_VOTE_SKIP`. */
export function screamingCase(name: string): string {
  return name
    .replace(/\./g, '_')
    .replace(/(?<=[a-z0-9])[A-Z]/g, (capital) => `_${capital}`)
    .toUpperCase();
}

/** The proto name of a contract enum value: `ROOM_STATUS_PENDING_REVIEW`. */
export function enumValueName(enumName: string, value: string): string {
  return `${screamingCase(enumName)}_${screamingCase(value)}`;
}

/** The value 0 every proto3 enum starts with, which no contract value maps to. */
export function unspecifiedName(enumName: string): string {
  return `${screamingCase(enumName)}_UNSPECIFIED`;
}

/** The contract value -> proto name table of one enum, for requests and tests. */
export function enumNames<V extends string>(enumName: string, values: readonly V[]): Readonly<Record<V, string>> {
  return Object.freeze(Object.fromEntries(values.map((value) => [value, enumValueName(enumName, value)])) as Record<V, string>);
}
