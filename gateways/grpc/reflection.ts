/**
 * Server reflection (`@grpc/reflection`, v1 and v1alpha) over the API's package definition and
 * the health service's, with one repair: protobufjs names the implicit entry type of a map field
 * after the field (`Statuses`) where protoc names it `StatusesEntry`, and Go clients (grpcurl)
 * refuse such a descriptor ("invalid map: incorrect implicit map entry name",
 * fullstorydev/grpcurl#519). Our own protos use no maps; grpc.health.v1's List does.
 */
import type * as grpc from '@grpc/grpc-js';
import type * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import descriptor from 'protobufjs/ext/descriptor/index.js';

interface MessageDescriptor {
  name?: string;
  field?: Array<{ name?: string; typeName?: string }>;
  nestedType?: MessageDescriptor[];
  options?: { mapEntry?: boolean } | null;
}

export function addReflection(server: grpc.Server, definition: protoLoader.PackageDefinition): void {
  const repaired = new Map<Buffer, Buffer>();
  const fixed: protoLoader.PackageDefinition = {};
  for (const [name, value] of Object.entries(definition)) {
    const files = (value as { fileDescriptorProtos?: Buffer[] }).fileDescriptorProtos;
    if (!Array.isArray(files)) {
      fixed[name] = value;
      continue;
    }
    const fileDescriptorProtos = files.map((bin) => {
      let out = repaired.get(bin);
      if (!out) {
        out = repairMapEntries(bin);
        repaired.set(bin, out);
      }
      return out;
    });
    fixed[name] = { ...value, fileDescriptorProtos } as protoLoader.PackageDefinition[string];
  }
  new ReflectionService(fixed).addToServer(server);
}

function repairMapEntries(bin: Buffer): Buffer {
  const file = descriptor.FileDescriptorProto.decode(bin) as unknown as { messageType?: MessageDescriptor[] };
  let changed = false;
  const visit = (message: MessageDescriptor): void => {
    for (const nested of message.nestedType ?? []) {
      visit(nested);
      if (!nested.options?.mapEntry || !nested.name) continue;
      const oldName = nested.name;
      const field = message.field?.find((candidate) => candidate.typeName === oldName || candidate.typeName?.endsWith(`.${message.name}.${oldName}`));
      if (!field?.name) continue;
      const entryName = `${camel(field.name)}Entry`;
      if (entryName === oldName) continue;
      nested.name = entryName;
      field.typeName = field.typeName === oldName ? entryName : `${field.typeName!.slice(0, -oldName.length)}${entryName}`;
      changed = true;
    }
  };
  for (const message of file.messageType ?? []) visit(message);
  return changed ? Buffer.from(descriptor.FileDescriptorProto.encode(file as never).finish()) : bin;
}

/** protoc's map entry naming: `statuses` -> `Statuses`, `foo_bar` -> `FooBar`. */
function camel(name: string): string {
  return name.replace(/(^|_)([a-z0-9])/g, (_, _sep: string, char: string) => char.toUpperCase());
}
