/**
 * The field-number lock (`proto/svc/v1/fields.lock.json`): for every generated message, each
 * field's number, presence and wire type; for every generated enum, each value's number. The
 * generator takes numbers from it and appends new ones, so a field keeps its number for ever and
 * a removed field's number (and name) stays reserved; a contract change that would change a
 * field's wire type fails the build instead of silently breaking clients built on the old
 * `.proto`. Written by the generator, reviewed like the `.proto` files, never edited by hand.
 *
 * A field is one short string, `"47 QueueMode"`, `"9 optional string"`, `"1 oneof:access
 * MemberRoomView"`, so a review reads the lock like the message.
 */
import type { Label, ProtoType } from './proto-model.js';

export interface LockedField {
  number: number;
  label: Label;
  type: ProtoType;
}

export interface LockedMessage {
  fields: Record<string, LockedField>;
  reserved: Record<string, number>;
}

export interface LockedEnum {
  values: Record<string, number>;
  reserved: Record<string, number>;
}

export interface FieldLock {
  messages: Record<string, LockedMessage>;
  enums: Record<string, LockedEnum>;
}

interface LockFile {
  about: string;
  enums: Record<string, LockedEnum>;
  messages: Record<string, { fields: Record<string, string>; reserved: Record<string, number> }>;
}

const ABOUT =
  'Written by `npm run build:proto` (gateways/grpc/schema/): the number, presence and wire type of every field of the generated messages, ' +
  'and the number of every enum value. Numbers are never changed or reused; a removed field or value stays under reserved. Do not edit.';

export function parseLock(text: string): FieldLock {
  const file = JSON.parse(text) as LockFile;
  const messages: Record<string, LockedMessage> = {};
  for (const [name, message] of Object.entries(file.messages)) {
    const fields: Record<string, LockedField> = {};
    for (const [field, spec] of Object.entries(message.fields)) fields[field] = parseField(`${name}.${field}`, spec);
    messages[name] = { fields, reserved: { ...message.reserved } };
  }
  return { messages, enums: file.enums };
}

export function lockText(lock: FieldLock): string {
  const byName = <T>(record: Record<string, T>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const byNumber = (record: Record<string, number>) => Object.fromEntries(Object.entries(record).sort(([, a], [, b]) => a - b));
  const file: LockFile = {
    about: ABOUT,
    enums: byName(Object.fromEntries(Object.entries(lock.enums).map(([name, e]) => [name, { values: byNumber(e.values), reserved: byNumber(e.reserved) }]))),
    messages: byName(
      Object.fromEntries(
        Object.entries(lock.messages).map(([name, message]) => [
          name,
          {
            fields: Object.fromEntries(Object.entries(message.fields).sort(([, a], [, b]) => a.number - b.number).map(([field, spec]) => [field, fieldText(spec)])),
            reserved: byNumber(message.reserved),
          },
        ]),
      ),
    ),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export function fieldText(field: LockedField): string {
  const label = field.label === 'plain' ? '' : typeof field.label === 'string' ? `${field.label} ` : `oneof:${field.label.oneof} `;
  return `${field.number} ${label}${field.type}`;
}

function parseField(where: string, spec: string): LockedField {
  const parts = spec.split(' ');
  const number = Number(parts[0]);
  const type = parts[parts.length - 1];
  const labelText = parts.length === 3 ? parts[1]! : undefined;
  if (!Number.isInteger(number) || number < 1 || type === undefined || parts.length > 3) throw new Error(`fields.lock.json: ${where} is "${spec}", not "<number> [repeated|optional|oneof:<name>] <type>"`);
  let label: Label = 'plain';
  if (labelText === 'repeated' || labelText === 'optional') label = labelText;
  else if (labelText?.startsWith('oneof:')) label = { oneof: labelText.slice('oneof:'.length) };
  else if (labelText !== undefined) throw new Error(`fields.lock.json: ${where} has the unknown label "${labelText}"`);
  return { number, label, type };
}

/** The lowest number above every number a message or enum has used (fields and reserved alike). */
export function nextNumber(used: Iterable<number>, first: number): number {
  let next = first;
  for (const number of used) if (number >= next) next = number + 1;
  // 19000-19999 are reserved by protobuf itself.
  return next >= 19000 && next <= 19999 ? 20000 : next;
}
