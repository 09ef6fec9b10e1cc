/**
 * Server reflection (`@grpc/reflection`, v1 and v1alpha) over the API's package definition and
 * the health service's, with one repair: protobufjs names the implicit entry type of a map field
 * after the field (`Statuses`) where protoc names it `StatusesEntry`, and Go clients (grpcurl)
 * refuse such a descriptor ("invalid map: incorrect implicit map entry name",
 * fullstorydev/grpcurl#519). Our own protos use no maps; grpc.health.v1's List does. And a
 * second: protobufjs writes a reserved range's end as it parsed it, inclusive (`reserved 8;` is
 * 8 to 8), where a descriptor's end is exclusive, so Go clients refuse the message ("reserved
 * ranges has invalid range: 8 to 7"); a field removed from a contract leaves its number
 * reserved (proto/svc/v1/fields.lock.json), which reflection must describe right.
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
  reservedRange?: Array<{ start?: number; end?: number }>;
}

export function addReflection(server: grpc.Server, definition: protoLoader.PackageDefinition): void {
  // Every message and service of a package definition carries the same array of file
  // descriptors, and ReflectionService decodes the array of each entry it is given: for our
  // API that was about 190 ms of each gateway start (a test file's service included). Each
  // distinct descriptor, repaired, in the order first met, gives the service the same files
  // in the same order (it keeps the first file of each name), decoded once.
  const repaired = new Map<Buffer, Buffer>();
  for (const value of Object.values(definition)) {
    const files = (value as { fileDescriptorProtos?: Buffer[] }).fileDescriptorProtos;
    if (!Array.isArray(files)) continue;
    for (const bin of files) if (!repaired.has(bin)) repaired.set(bin, repairDescriptor(bin));
  }
  const files = { fileDescriptorProtos: [...repaired.values()] } as unknown as protoLoader.PackageDefinition[string];
  new ReflectionService({ files }).addToServer(server);
}

function repairDescriptor(bin: Buffer): Buffer {
  const file = descriptor.FileDescriptorProto.decode(bin) as unknown as { messageType?: MessageDescriptor[] };
  let changed = false;
  const visit = (message: MessageDescriptor): void => {
    for (const range of message.reservedRange ?? []) {
      if (range.start === undefined || range.end === undefined) continue;
      range.end += 1;
      changed = true;
    }
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
