/**
 * The contracts as `.proto` messages: walks each bound zod schema (bindings.ts) and makes its
 * message, taking every field's number, presence and wire type from the lock and giving a new
 * field the next free number and the type its schema implies. Checks that a locked field's
 * schema can still be carried by its locked wire type; a change that cannot (a string that
 * became a number, a required scalar that became nullable without proto presence) is an error
 * naming the field: a wire type never changes, a new field is added instead. Returns the files
 * and the lock as they must be now.
 */
import type { z } from 'zod';
import { discriminatorValues, type EntryBinding, type EnumBinding, type EnvelopeBinding, type FileBinding, type ListBinding, type ViewBinding } from './bindings.js';
import { nextNumber, type FieldLock, type LockedField, type LockedMessage } from './lock.js';
import { INTEGER_SCALARS, type Label, type ProtoEnum, type ProtoField, type ProtoFile, type ProtoMessage, type ProtoType } from './proto-model.js';

/** What a contract field is, with its wrappers (optional, nullable) taken off. */
type Shape =
  | { kind: 'string' | 'bool' | 'double' }
  | { kind: 'int'; min: number; max: number }
  | { kind: 'enum'; bound: string | undefined }
  | { kind: 'message'; name: string }
  | { kind: 'array'; item: Shape }
  | { kind: 'record'; value: Shape }
  | { kind: 'discriminator' };

interface FieldSchema {
  shape: Shape;
  /** The contract allows the value to be missing (optional) or null. */
  absent: boolean;
  description: string | undefined;
}

type AnySchema = z.core.$ZodType & { description?: string };

export interface Generated {
  files: ProtoFile[];
  lock: FieldLock;
  /** What changed in the lock, one line each, for the build log. */
  changes: string[];
}

export class ContractProtoError extends Error {
  override name = 'ContractProtoError';
}

export function protoFromContracts(bindings: readonly FileBinding[], previous: FieldLock): Generated {
  const lock: FieldLock = structuredClone(previous);
  const changes: string[] = [];
  const messagesBySchema = new Map<unknown, string>();
  const enumsBySchema = new Map<unknown, string>();
  const lists = new Map<string, ListBinding>();
  const entries = new Map<string, EntryBinding>();
  for (const file of bindings) {
    for (const binding of file.enums) for (const schema of binding.schemas) enumsBySchema.set(schema._zod.def, binding.name);
    for (const binding of file.messages) {
      if (binding.kind === 'view') messagesBySchema.set(binding.schema._zod.def, binding.name);
      else if (binding.kind === 'list') lists.set(binding.name, binding);
      else if (binding.kind === 'entry') entries.set(binding.name, binding);
    }
  }
  const context = { lock, changes, messagesBySchema, enumsBySchema, lists, entries };
  const files = bindings.map((file) => ({
    path: file.path,
    package: file.package,
    comment: file.comment,
    sources: file.sources,
    imports: file.imports,
    enums: file.enums.map((binding) => enumOf(binding, context)),
    messages: file.messages.map((binding) => {
      switch (binding.kind) {
        case 'view':
          return viewMessage(binding, context);
        case 'list':
          return listMessage(binding, context);
        case 'entry':
          return entryMessage(binding, context);
        case 'envelope':
          return envelopeMessage(binding, context);
      }
    }),
  }));
  return { files, lock, changes };
}

interface Context {
  lock: FieldLock;
  changes: string[];
  messagesBySchema: Map<unknown, string>;
  enumsBySchema: Map<unknown, string>;
  lists: Map<string, ListBinding>;
  entries: Map<string, EntryBinding>;
}

function enumOf(binding: EnumBinding, context: Context): ProtoEnum {
  const locked = (context.lock.enums[binding.name] ??= { values: {}, reserved: {} });
  const values = [...new Set(binding.schemas.flatMap((schema) => schema.options.map(String)))];
  for (const value of values) {
    if (locked.values[value] !== undefined) continue;
    const number = nextNumber([...Object.values(locked.values), ...Object.values(locked.reserved)], 1);
    locked.values[value] = number;
    context.changes.push(`enum ${binding.name}: value ${value} = ${number}`);
  }
  for (const [value, number] of Object.entries(locked.values)) {
    if (values.includes(value)) continue;
    delete locked.values[value];
    locked.reserved[value] = number;
    context.changes.push(`enum ${binding.name}: value ${value} removed, ${number} reserved`);
  }
  return {
    name: binding.name,
    ...commentOf(binding.comment ?? binding.schemas[0]?.description),
    values: Object.entries(locked.values).map(([value, number]) => ({ value, number })),
    reserved: { ...locked.reserved },
  };
}

/** A field a message must have: its name, its wire form when it is new, and why a locked one no longer fits. */
interface WantedField {
  name: string;
  derive: () => Omit<LockedField, 'number'>;
  check: (field: LockedField) => string | undefined;
  description: string | undefined;
}

function viewMessage(binding: ViewBinding, context: Context): ProtoMessage {
  const locked = lockedMessage(binding.name, context);
  const schema = binding.schema as AnySchema;
  const def = schema._zod.def as { type: string; discriminator?: string; options?: AnySchema[]; shape?: Record<string, AnySchema> };
  const wanted: WantedField[] = [];
  if (def.type === 'union' && def.discriminator !== undefined) {
    // One member of a oneof named by the discriminator per option, named by its value.
    const oneof = def.discriminator;
    for (const option of def.options ?? []) {
      const value = literalOf((option._zod.def as unknown as { shape: Record<string, AnySchema> }).shape[oneof]);
      const type = context.messagesBySchema.get(option._zod.def);
      if (value === undefined || type === undefined) throw new ContractProtoError(`${binding.name}: every option of the union must be a bound view with a literal ${oneof}`);
      wanted.push({
        name: value,
        derive: () => ({ label: { oneof }, type }),
        check: (field) => (typeof field.label === 'object' && field.label.oneof === oneof && field.type === type ? undefined : `is locked as ${describe(field)}, not a member of oneof ${oneof} of ${type}`),
        description: option.description,
      });
    }
  } else if (def.type === 'object' && def.shape) {
    wanted.push(...objectFields(binding.name, def.shape, context));
  } else {
    throw new ContractProtoError(`${binding.name}: a view is an object or a discriminated union, not ${def.type}`);
  }
  return settle(binding.name, binding.schema.description, locked, wanted, context);
}

/** The fields of an object schema, but its discriminators (literals). */
function objectFields(message: string, shape: Record<string, AnySchema>, context: Context): WantedField[] {
  const wanted: WantedField[] = [];
  for (const [name, fieldSchema] of Object.entries(shape)) {
    const field = fieldSchemaOf(`${message}.${name}`, fieldSchema, context);
    if (field.shape.kind === 'discriminator') continue;
    wanted.push({ name, derive: () => deriveField(field, context), check: (locked) => checkField(field, locked, context), description: field.description });
  }
  return wanted;
}

/**
 * An envelope (bindings.ts): its head's fields, then one oneof member per option of the union.
 * A member is found in the lock by its message, so its name stays what it was (`word_filter`
 * carries `room.wordFilter`); a new one is named after the option's discriminator value.
 */
function envelopeMessage(binding: EnvelopeBinding, context: Context): ProtoMessage {
  const locked = lockedMessage(binding.name, context);
  const wanted = objectFields(binding.name, binding.head.shape, context);
  const { oneof } = binding;
  for (const option of binding.union.options as readonly AnySchema[]) {
    const values = discriminatorValues(option as z.ZodType, binding.union.def.discriminator);
    if (values.every((value) => binding.skip.includes(value))) continue;
    const type = context.messagesBySchema.get(option._zod.def);
    if (type === undefined) {
      throw new ContractProtoError(
        `${binding.name}: ${values.join(', ')} is an option of the union that no message is bound to: bind its schema in gateways/grpc/schema/bindings.ts, or skip it there`,
      );
    }
    const isMember = (field: LockedField) => typeof field.label === 'object' && field.label.oneof === oneof && field.type === type;
    const name = Object.entries(locked.fields).find(([, field]) => isMember(field))?.[0] ?? memberName(values[0] ?? type);
    wanted.push({
      name,
      derive: () => ({ label: { oneof }, type }),
      check: (field) => (isMember(field) ? undefined : `is locked as ${describe(field)}, not a member of oneof ${oneof} of ${type}`),
      description: undefined,
    });
  }
  return settle(binding.name, binding.comment, locked, wanted, context);
}

/** `queue.votes` -> `queueVotes` (rendered `queue_votes`). */
function memberName(value: string): string {
  return value.replace(/[._-]([a-zA-Z0-9])/g, (_, next: string) => next.toUpperCase());
}

/** The message with its wanted fields numbered from the lock (new ones appended to it), and the lock's removed fields reserved. */
function settle(message: string, comment: string | undefined, locked: LockedMessage, wanted: readonly WantedField[], context: Context): ProtoMessage {
  const fields = wanted.map(({ name, derive, check, description }) => {
    const where = `${message}.${name}`;
    let field = locked.fields[name];
    if (field) {
      const problem = check(field);
      if (problem) {
        throw new ContractProtoError(
          `${where} ${problem}. A field's wire type never changes: give the contract a new field instead (removing this one reserves its number ${field.number}).`,
        );
      }
    } else {
      const reservedNumber = locked.reserved[name];
      if (reservedNumber !== undefined) {
        throw new ContractProtoError(`${where} was removed before (its number ${reservedNumber} is reserved): a field's name is not reused either; choose another name`);
      }
      field = { ...derive(), number: nextNumber([...Object.values(locked.fields).map((f) => f.number), ...Object.values(locked.reserved)], 1) };
      locked.fields[name] = field;
      context.changes.push(`message ${message}: field ${name} = ${field.number} (${describe(field)})`);
    }
    return { name, number: field.number, type: field.type, label: field.label, ...commentOf(description) } satisfies ProtoField;
  });
  retireRemoved(message, locked, new Set(wanted.map(({ name }) => name)), context);
  return { name: message, ...commentOf(comment), fields: fields.sort((a, b) => a.number - b.number), reserved: { ...locked.reserved } };
}

function listMessage(binding: ListBinding, context: Context): ProtoMessage {
  return fixedMessage(binding.name, binding.comment, [{ name: binding.field, label: 'repeated', type: binding.item }], context);
}

function entryMessage(binding: EntryBinding, context: Context): ProtoMessage {
  return fixedMessage(
    binding.name,
    binding.comment,
    [
      { name: binding.key, label: 'plain', type: 'string' },
      { name: binding.value, label: 'plain', type: 'string' },
    ],
    context,
  );
}

/** A message with no schema: its fields are the binding's, numbered in order the first time. */
function fixedMessage(name: string, comment: string, wanted: Array<Omit<LockedField, 'number'> & { name: string }>, context: Context): ProtoMessage {
  const locked = lockedMessage(name, context);
  const fields = wanted.map(({ name: fieldName, label, type }) => {
    let field = locked.fields[fieldName];
    if (field && (field.type !== type || !sameLabel(field.label, label))) throw new ContractProtoError(`${name}.${fieldName} is locked as ${describe(field)}: a wire type never changes`);
    if (!field) {
      field = { number: nextNumber([...Object.values(locked.fields).map((f) => f.number), ...Object.values(locked.reserved)], 1), label, type };
      locked.fields[fieldName] = field;
      context.changes.push(`message ${name}: field ${fieldName} = ${field.number} (${describe(field)})`);
    }
    return { name: fieldName, number: field.number, type, label };
  });
  retireRemoved(name, locked, new Set(wanted.map((field) => field.name)), context);
  return { name, comment, fields, reserved: { ...locked.reserved } };
}

function lockedMessage(name: string, context: Context): LockedMessage {
  const existing = context.lock.messages[name];
  if (existing) return existing;
  context.changes.push(`message ${name}: new`);
  return (context.lock.messages[name] = { fields: {}, reserved: {} });
}

/** A locked field the contract no longer has: its number and name are reserved for ever. */
function retireRemoved(message: string, locked: LockedMessage, present: ReadonlySet<string>, context: Context): void {
  for (const [name, field] of Object.entries(locked.fields)) {
    if (present.has(name)) continue;
    delete locked.fields[name];
    locked.reserved[name] = field.number;
    context.changes.push(`message ${message}: field ${name} removed, ${field.number} reserved`);
  }
}

function fieldSchemaOf(where: string, schema: AnySchema, context: Context): FieldSchema {
  let current = schema;
  let absent = false;
  let description = schema.description;
  for (;;) {
    const def = current._zod.def as { type: string; innerType?: AnySchema };
    if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) {
      absent = true;
      current = def.innerType;
      description ??= current.description;
      continue;
    }
    break;
  }
  const shape = shapeOf(where, current, context);
  // A field that is a named view or enum and says nothing of its own: its type's comment is enough.
  if ((shape.kind === 'message' || shape.kind === 'enum') && description === current.description) description = undefined;
  return { shape, absent, description };
}

function shapeOf(where: string, schema: AnySchema, context: Context): Shape {
  const def = schema._zod.def as { type: string; element?: AnySchema; valueType?: AnySchema; keyType?: AnySchema; innerType?: AnySchema };
  switch (def.type) {
    case 'string':
      return { kind: 'string' };
    case 'boolean':
      return { kind: 'bool' };
    case 'number': {
      const number = schema as unknown as z.ZodNumber;
      return number.isInt ? { kind: 'int', min: number.minValue ?? -Infinity, max: number.maxValue ?? Infinity } : { kind: 'double' };
    }
    case 'enum':
      return { kind: 'enum', bound: context.enumsBySchema.get(def) };
    case 'literal':
      return { kind: 'discriminator' };
    case 'array':
      return { kind: 'array', item: shapeOf(`${where}[]`, def.element!, context) };
    case 'record':
      return { kind: 'record', value: shapeOf(`${where}{}`, def.valueType!, context) };
    case 'object':
    case 'union': {
      const name = context.messagesBySchema.get(def);
      if (name === undefined) throw new ContractProtoError(`${where} is an ${def.type} that no message is bound to: add its schema to gateways/grpc/schema/bindings.ts`);
      return { kind: 'message', name };
    }
    case 'optional':
    case 'nullable':
      // Optional items of a list have no proto form.
      throw new ContractProtoError(`${where}: a list of optional or nullable values has no proto form`);
    default:
      throw new ContractProtoError(`${where} is a ${def.type} schema, which has no proto form yet (gateways/grpc/schema/from-contracts.ts)`);
  }
}

/** A new field's wire form: what the schema implies. */
function deriveField(field: FieldSchema, context: Context): Omit<LockedField, 'number'> {
  const { shape } = field;
  if (shape.kind === 'array') return { label: 'repeated', type: itemType(shape.item) };
  if (shape.kind === 'record') {
    throw new ContractProtoError(`a record field needs an entry message: bind one (kind 'entry') and give the field a number by hand in the lock${[...context.entries.keys()].length ? ` (entries: ${[...context.entries.keys()].join(', ')})` : ''}`);
  }
  const type = itemType(shape);
  // Messages have presence by themselves; a scalar that may be absent needs proto3 `optional`.
  return { label: field.absent && shape.kind !== 'message' ? 'optional' : 'plain', type };
}

function itemType(shape: Shape): ProtoType {
  switch (shape.kind) {
    case 'string':
    case 'bool':
    case 'double':
      return shape.kind;
    case 'int':
      if (shape.min >= 0) return shape.max <= 0xffff_ffff ? 'uint32' : 'uint64';
      return 'int64';
    case 'enum':
      return shape.bound ?? 'string';
    case 'message':
      return shape.name;
    default:
      throw new ContractProtoError(`a ${shape.kind} inside a list has no proto form`);
  }
}

/** Why a locked field cannot carry the contract's field any more, or undefined when it can. */
function checkField(field: FieldSchema, locked: LockedField, context: Context): string | undefined {
  const { shape } = field;
  const wrong = `is locked as ${describe(locked)}, which cannot carry its contract schema`;
  if (typeof locked.label === 'object') return wrong;
  if (locked.label === 'repeated') {
    if (shape.kind === 'array') return fits(shape.item, locked.type) ? undefined : wrong;
    if (shape.kind === 'record') {
      const entry = context.entries.get(locked.type);
      return entry && fits(shape.value, 'string') ? undefined : `${wrong} (a record travels as a repeated entry message)`;
    }
    return wrong;
  }
  const list = context.lists.get(locked.type);
  if (list) return shape.kind === 'array' && fits(shape.item, list.item) ? undefined : wrong;
  if (!fits(shape, locked.type)) return wrong;
  if (field.absent && locked.label === 'plain' && shape.kind !== 'message') {
    return `can be absent now, but its locked wire form (${describe(locked)}) has no presence: absent would read as its default`;
  }
  return undefined;
}

function fits(shape: Shape, type: ProtoType): boolean {
  switch (shape.kind) {
    case 'string':
      return type === 'string';
    case 'bool':
      return type === 'bool';
    case 'double':
      return type === 'double';
    case 'int':
      // Any integer width: the contracts bound few integers, and a width is the lock's to keep.
      return INTEGER_SCALARS.includes(type as never);
    case 'enum':
      return type === (shape.bound ?? 'string');
    case 'message':
      return type === shape.name;
    default:
      return false;
  }
}

function sameLabel(a: Label, b: Label): boolean {
  return typeof a === 'object' || typeof b === 'object' ? JSON.stringify(a) === JSON.stringify(b) : a === b;
}

function describe(field: Omit<LockedField, 'number'>): string {
  const label = typeof field.label === 'object' ? `oneof ${field.label.oneof} ` : field.label === 'plain' ? '' : `${field.label} `;
  return `${label}${field.type}`;
}

function literalOf(schema: AnySchema | undefined): string | undefined {
  const values = (schema?._zod.def as { values?: unknown[] } | undefined)?.values;
  return values?.length === 1 && typeof values[0] === 'string' ? values[0] : undefined;
}

function commentOf(text: string | undefined): { comment?: string } {
  return text ? { comment: text } : {};
}

