/**
 * A server as `npm run dev` starts it has no SMTP. Email sign-up and password reset then answer
 * what the feature's state is (failed_precondition, "email is not configured on this server"),
 * as the API document declares for those operations, and the operator reads it once in the log
 * at warn, not an error line per call.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed } from '../bed.js';
import { capturingLogger } from '../../workflows/fixtures.js';
import { DocumentSchemas } from './document-schemas.js';

let bed: GatewayBed;
const log = capturingLogger();
const documented = new DocumentSchemas();

test.before(async () => {
  bed = await startGatewayBed('email_without_smtp', { logger: log.logger });
  await bed.set('user', { enableEmailSignup: true });
});
test.after.always(async () => {
  await bed?.close();
});

test('without SMTP, email sign-up and reset answer failed_precondition, as the document says, and the log warns once', async (t) => {
  const calls: Array<[operationId: string, path: string, body: Record<string, string>]> = [
    ['emailSignupStart', '/api/auth/email/signup/start', { email: 'ann@example.com', username: 'ann_without_smtp' }],
    ['passwordResetStart', '/api/auth/password/reset/start', { email: 'ann@example.com' }],
  ];
  for (const [operationId, path, body] of calls) {
    t.true(documented.admitsBody(operationId, body), operationId);
    // The document declares the code on the operation, and says when it is answered.
    const operation = documented.operation(operationId);
    t.regex(operation.responses.default?.description ?? '', /failed_precondition/, operationId);
    t.regex(operation.description ?? '', /email is not configured on this server/, operationId);
    for (let i = 0; i < 3; i++) {
      const answer = await bed.call<{ code: string; message: string }>('POST', path, body);
      t.is(answer.status, 409, `${operationId}: ${JSON.stringify(answer.body)}`);
      t.is(answer.body.code, 'failed_precondition');
      t.regex(answer.body.message, /email is not configured on this server/);
    }
  }
  const warnings = log.lines.filter((line) => line.level === 40 && /email is not configured/.test(String(line.msg)));
  t.is(warnings.length, 1, JSON.stringify(warnings));
  t.deepEqual(log.lines.filter((line) => Number(line.level) >= 50), []);
});
