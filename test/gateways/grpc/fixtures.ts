/**
 * What the gRPC tests share: a gateway bed with a gRPC client on it, and the check that a call
 * failed with a given status and stable code (trailer `svc-error-code`), with its request id.
 */
import * as grpc from '@grpc/grpc-js';
import type { ExecutionContext } from 'ava';
import type { ErrorCode } from '../../../contracts/errors.js';
import { connectGrpc, GrpcCallError, type SvcGrpc } from '../../../gateways/grpc/client.js';
import { startGatewayBed, type BedOptions, type GatewayBed, type Member } from '../bed.js';
import { uniqueIp } from '../../fixtures/client-address.js';

export interface GrpcBed {
  bed: GatewayBed;
  client: SvcGrpc;
  /** A signed-up user (over HTTP) and the client acting as them. */
  user(prefix?: string): Promise<{ member: Member; as: SvcGrpc }>;
  guest(name?: string): Promise<{ member: Member; as: SvcGrpc }>;
  close(): Promise<void>;
}

export { uniqueIp };

export async function startGrpcBed(label: string, options: BedOptions = {}): Promise<GrpcBed> {
  const bed = await startGatewayBed(label, options);
  if (!bed.grpcAddress) throw new Error('the gateway did not report a gRPC address');
  const client = connectGrpc(bed.grpcAddress);
  return {
    bed,
    client,
    async user(prefix = 'user') {
      const member = await bed.signUp(prefix);
      return { member, as: client.as({ token: member.token, forwardedFor: uniqueIp() }) };
    },
    async guest(name = 'Guest') {
      const member = await bed.guest(name);
      return { member, as: client.as({ token: member.token, forwardedFor: uniqueIp() }) };
    },
    async close() {
      client.close();
      await bed.close();
    },
  };
}

/** Awaits a refusal and checks its gRPC status, stable code and request id; returns it for more checks. */
export async function refused(t: ExecutionContext, call: Promise<unknown>, code: ErrorCode, status: grpc.status): Promise<GrpcCallError> {
  const err = await call.then(
    (value) => {
      throw new Error(`expected ${code}, got an answer: ${JSON.stringify(value)}`);
    },
    (caught: unknown) => caught,
  );
  if (!(err instanceof GrpcCallError)) throw err;
  t.is(err.code, code, err.message);
  t.is(err.grpcStatus, status, `${grpc.status[err.grpcStatus]} for ${code}`);
  t.regex(err.requestId ?? '', /^[A-Za-z0-9._-]{1,128}$/);
  return err;
}
