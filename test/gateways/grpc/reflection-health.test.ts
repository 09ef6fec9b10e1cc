import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import test from 'ava';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { uniqueIp, startGrpcBed, type GrpcBed } from './fixtures.js';

const run = promisify(execFile);
let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('grpc_reflection');
});
test.after.always(async () => {
  await g?.close();
});

/** grpcurl as installed by infra/install.sh (test.sh passes its path). */
function grpcurl(): string {
  const path = process.env.SVCTEST_GRPCURL;
  if (!path || !existsSync(path)) throw new Error(`grpcurl not found at SVCTEST_GRPCURL=${path ?? ''}: run the tests with npm test (infra/install.sh builds it)`);
  return path;
}

const curl = async (...args: string[]): Promise<string> => (await run(grpcurl(), ['-plaintext', ...args], { timeout: 20_000 })).stdout;

test('grpcurl lists the services through reflection and describes a method', async (t) => {
  const services = (await curl(g.bed.grpcAddress, 'list')).trim().split('\n').sort();
  for (const name of ['svc.v1.AuthService', 'svc.v1.RoomService', 'svc.v1.MemberService', 'svc.v1.PlaylistService', 'svc.v1.PlaybackService', 'svc.v1.ChatService', 'svc.v1.PollService', 'grpc.health.v1.Health']) {
    t.true(services.includes(name), `${name} in ${services.join(', ')}`);
  }
  const methods = await curl(g.bed.grpcAddress, 'list', 'svc.v1.RoomService');
  t.regex(methods, /svc\.v1\.RoomService\.WatchRoom/);
  const described = await curl(g.bed.grpcAddress, 'describe', 'svc.v1.RoomService.WatchRoom');
  t.regex(described, /returns \( stream \.svc\.v1\.WatchRoomResponse \)/);
});

test('grpcurl signs in, creates a room and reads it, with JSON in and out', async (t) => {
  const { member } = await g.user('curl');
  const signIn = JSON.parse(
    await curl('-H', `x-forwarded-for: ${uniqueIp()}`, '-d', JSON.stringify({ username: member.username, password: 'correct horse battery staple' }), g.bed.grpcAddress, 'svc.v1.AuthService/SignInWithPassword'),
  ) as { session: { accessToken: string; user: { id: string } } };
  t.is(signIn.session.user.id, member.userId);
  const bearer = ['-H', `authorization: Bearer ${signIn.session.accessToken}`];
  const created = JSON.parse(await curl(...bearer, '-d', '{"name": "From grpcurl", "visibility": "ROOM_VISIBILITY_PUBLIC"}', g.bed.grpcAddress, 'svc.v1.RoomService/CreateRoom')) as {
    room: { id: string; name: string; visibility: string };
  };
  t.like(created.room, { name: 'From grpcurl', visibility: 'ROOM_VISIBILITY_PUBLIC' });
  const view = JSON.parse(await curl(...bearer, '-d', JSON.stringify({ roomId: created.room.id }), g.bed.grpcAddress, 'svc.v1.RoomService/GetRoom')) as {
    member: { room: { id: string; ownerId: string } };
  };
  t.like(view.member.room, { id: created.room.id, ownerId: member.userId });

  // A refusal shows the status and the svc-error-code trailer.
  const failed = await run(grpcurl(), ['-plaintext', '-v', '-d', JSON.stringify({ roomId: created.room.id }), g.bed.grpcAddress, 'svc.v1.RoomService/GetRoom'], { timeout: 20_000 }).then(
    () => undefined,
    (err: { stdout: string; stderr: string }) => err,
  );
  t.truthy(failed);
  t.regex(`${failed!.stdout}${failed!.stderr}`, /Unauthenticated/);
  t.regex(failed!.stdout, /svc-error-code: unauthenticated/);
});

test('health: SERVING overall and per service while the dependencies are ready, over grpcurl and a grpc-js client', async (t) => {
  const overall = JSON.parse(await curl(g.bed.grpcAddress, 'grpc.health.v1.Health/Check')) as { status: string };
  t.is(overall.status, 'SERVING');
  const rooms = JSON.parse(await curl('-d', '{"service": "svc.v1.RoomService"}', g.bed.grpcAddress, 'grpc.health.v1.Health/Check')) as { status: string };
  t.is(rooms.status, 'SERVING');

  const definition = protoLoader.loadSync(healthProtoPath, { enums: String, includeDirs: [healthProtoPath.replace(/health\/v1\/health\.proto$/, '')] });
  const Health = (grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } } }).grpc.health.v1.Health;
  const client = new Health(g.bed.grpcAddress, grpc.credentials.createInsecure());
  try {
    const check = (service: string) =>
      new Promise<{ err: grpc.ServiceError | null; status?: string }>((resolve) => {
        (client as unknown as { Check: (req: unknown, cb: (err: grpc.ServiceError | null, res?: { status: string }) => void) => void }).Check({ service }, (err, res) =>
          resolve({ err, ...(res ? { status: res.status } : {}) }),
        );
      });
    t.is((await check('svc.v1.ChatService')).status, 'SERVING');
    t.is((await check('no.such.Service')).err?.code, grpc.status.NOT_FOUND);
  } finally {
    client.close();
  }
});
