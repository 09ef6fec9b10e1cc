/**
 * The gRPC wire as the previous release (test/upgrade/previous-release) speaks it still holds:
 * every field of every message it had is still there with the same number, name and wire type,
 * or its number is reserved; every enum value keeps its number. Independent of the field lock, so
 * a lock edited by hand (or lost) cannot renumber the API under its clients.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import protobuf from 'protobufjs';
import { PROTO_DIR } from '../../gateways/grpc/proto.js';
import { repoRoot } from '../harness/stack.js';
import { pinnedCommit } from '../upgrade/previous-release.js';

const run = promisify(execFile);

function load(dir: string, files: string[]): protobuf.Namespace {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(dir, target);
  root.loadSync(files, { keepCase: true });
  root.resolveAll();
  return root.lookup('svc.v1') as protobuf.Namespace;
}

async function previousProtos(): Promise<{ dir: string; files: string[] }> {
  const commit = await pinnedCommit();
  const root = repoRoot();
  const listing = (await run('git', ['-C', root, 'ls-tree', '-r', '--name-only', commit, 'proto/svc/v1/'])).stdout.split('\n').filter((path) => path.endsWith('.proto'));
  const dir = await mkdtemp(join(tmpdir(), 'svc-previous-protos-'));
  for (const path of listing) {
    const target = join(dir, path.slice('proto/'.length));
    await mkdir(join(target, '..'), { recursive: true });
    await writeFile(target, (await run('git', ['-C', root, 'show', `${commit}:${path}`], { maxBuffer: 16 * 1024 * 1024 })).stdout);
  }
  return { dir, files: listing.map((path) => path.slice('proto/'.length)) };
}

// Presence (proto3 `optional`) is not part of the wire: a singular field is written the same way
// with or without it (main made Subtitle.url optional after the previous release, a safe change).
const shapeOf = (field: protobuf.Field) => `${field.repeated ? 'repeated ' : ''}${field.type}`;

test('every field and enum value of the previous release keeps its number and type, or stays reserved', async (t) => {
  const previous = await previousProtos();
  try {
    const before = load(previous.dir, previous.files);
    const current = load(PROTO_DIR, (await run('git', ['-C', repoRoot(), 'ls-files', 'proto/svc/v1/*.proto'])).stdout.split('\n').filter(Boolean).map((path) => path.slice('proto/'.length)));
    let fields = 0;
    for (const old of before.nestedArray) {
      const now = current.lookup(old.name);
      if (old instanceof protobuf.Type) {
        if (!(now instanceof protobuf.Type)) {
          t.fail(`message ${old.name} is gone`);
          continue;
        }
        for (const field of old.fieldsArray) {
          fields += 1;
          const same = now.fieldsArray.find((candidate) => candidate.id === field.id);
          if (!same) {
            t.true(now.isReservedId(field.id) && now.isReservedName(field.name), `${old.name}.${field.name} = ${field.id} is gone but not reserved`);
            continue;
          }
          t.is(same.name, field.name, `${old.name} field ${field.id} changed its name`);
          t.is(shapeOf(same), shapeOf(field), `${old.name}.${field.name} changed its wire type`);
        }
      } else if (old instanceof protobuf.Enum) {
        if (!(now instanceof protobuf.Enum)) {
          t.fail(`enum ${old.name} is gone`);
          continue;
        }
        for (const [name, number] of Object.entries(old.values)) {
          t.true(now.values[name] === number || (now.isReservedId(number) && now.isReservedName(name)), `${old.name}.${name} = ${number} changed`);
        }
      }
    }
    t.true(fields > 100, `compared ${fields} fields`);
  } finally {
    await rm(previous.dir, { recursive: true, force: true });
  }
});
