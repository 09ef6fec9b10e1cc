import test from 'ava';
import { startGatewayBed, type GatewayBed } from '../bed.js';
import { GrpcTransport } from './grpc-transport.js';
import { HttpWsTransport } from './http-ws-transport.js';
import { roomScenario } from './room-scenario.js';

let bed: GatewayBed;
let grpc: GrpcTransport | undefined;
test.before(async () => {
  bed = await startGatewayBed('room_scenario');
});
test.after.always(async () => {
  grpc?.close();
  await bed?.close();
});

test('the room scenario over HTTP commands and WebSocket events', async (t) => {
  await roomScenario(t, new HttpWsTransport(bed), await bed.signUp('owner'), await bed.signUp('member'));
});

test('the room scenario over gRPC commands and the WatchRoom stream', async (t) => {
  grpc = new GrpcTransport(bed.grpcAddress);
  await roomScenario(t, grpc, await bed.signUp('owner'), await bed.signUp('member'));
});
