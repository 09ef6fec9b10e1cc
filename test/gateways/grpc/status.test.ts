import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { AppError } from '../../../errors/app-error.js';
import { ERROR_CODES, GRPC_STATUS } from '../../../contracts/errors.js';
import { ERROR_CODE_KEY, ERROR_ISSUES_KEY, grpcStatusOf, REQUEST_ID_KEY, RETRY_AFTER_KEY, serviceErrorOf } from '../../../gateways/grpc/status.js';

test('every error code maps to a gRPC status, and the table says what the conventions promise', (t) => {
  for (const code of ERROR_CODES) t.is(typeof grpcStatusOf(code), 'number', code);
  t.is(grpcStatusOf('invalid_argument'), grpc.status.INVALID_ARGUMENT);
  t.is(grpcStatusOf('unauthenticated'), grpc.status.UNAUTHENTICATED);
  for (const code of ['forbidden', 'signup_disabled', 'review_pending', 'review_rejected', 'account_banned'] as const) {
    t.is(grpcStatusOf(code), grpc.status.PERMISSION_DENIED, code);
  }
  t.is(grpcStatusOf('not_found'), grpc.status.NOT_FOUND);
  t.is(grpcStatusOf('conflict'), grpc.status.FAILED_PRECONDITION);
  for (const code of ['limit_exceeded', 'rate_limited', 'payload_too_large'] as const) t.is(grpcStatusOf(code), grpc.status.RESOURCE_EXHAUSTED, code);
  t.is(grpcStatusOf('busy'), grpc.status.UNAVAILABLE);
  t.is(grpcStatusOf('unavailable'), grpc.status.UNAVAILABLE);
  t.is(grpcStatusOf('deadline_exceeded'), grpc.status.DEADLINE_EXCEEDED);
  t.is(grpcStatusOf('internal'), grpc.status.INTERNAL);
  t.deepEqual(Object.keys(GRPC_STATUS).sort(), [...ERROR_CODES].sort());
});

test('an AppError travels as status, message and svc-* trailers', (t) => {
  const issues = [{ key: 'name', message: 'must be 1 to 64 characters — «ü»' }];
  const error = serviceErrorOf(new AppError('invalid_argument', 'name: must be 1 to 64 characters', issues), 'req-1');
  t.is(error.code, grpc.status.INVALID_ARGUMENT);
  t.is(error.details, 'name: must be 1 to 64 characters');
  t.deepEqual(error.metadata.get(ERROR_CODE_KEY), ['invalid_argument']);
  t.deepEqual(error.metadata.get(REQUEST_ID_KEY), ['req-1']);
  t.deepEqual(JSON.parse((error.metadata.get(ERROR_ISSUES_KEY)[0] as Buffer).toString('utf8')), issues);

  const limited = serviceErrorOf(new AppError('rate_limited', 'too many', [], { retryAfterSeconds: 2.2 }), 'req-2');
  t.deepEqual(limited.metadata.get(RETRY_AFTER_KEY), ['3']);
});

test('anything but an AppError is internal and says nothing about its cause', (t) => {
  const error = serviceErrorOf(new Error('connection to 10.1.2.3 refused; password=hunter2'), 'req-3');
  t.is(error.code, grpc.status.INTERNAL);
  t.notRegex(error.details, /10\.1|hunter2|refused/);
  t.regex(error.details, /request id/);
  t.deepEqual(error.metadata.get(ERROR_CODE_KEY), ['internal']);
  t.deepEqual(error.metadata.get(ERROR_ISSUES_KEY), []);
  const internalAppError = serviceErrorOf(new AppError('internal', 'stack: at foo (secret.ts:1)'), 'req-4');
  t.notRegex(internalAppError.details, /secret/);
});
