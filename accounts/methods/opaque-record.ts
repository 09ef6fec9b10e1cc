/**
 * Whether a string is a well-formed OPAQUE registration record, the credential an OPAQUE
 * signup, email confirmation, reset or change stores. A record is the client's public key, a
 * masking key and an envelope: exactly 192 bytes, whose key must decode as a ristretto255
 * point. A record that is not one would be stored and then fail every login with a protocol
 * error, so it is refused when it arrives (`invalid_argument` naming the field).
 */
import * as opaque from '@serenity-kit/opaque';
import { AppError } from '../../errors/index.js';

/** 192 bytes in base64url without padding. */
const RECORD = /^[A-Za-z0-9_-]{256}$/;

/**
 * The library has no parse-only call; starting a login against the record deserialises it
 * fully. The probe's setup and first message are throwaways: deserialisation does not depend
 * on them, and nothing of the login is kept.
 */
let probe: { serverSetup: string; startLoginRequest: string } | undefined;

export async function checkOpaqueRecord(record: string, field = 'registrationRecord'): Promise<string> {
  if (!RECORD.test(record) || !(await deserialises(record))) {
    throw AppError.invalid([{ key: field, message: 'is not an OPAQUE registration record' }]);
  }
  return record;
}

async function deserialises(record: string): Promise<boolean> {
  await opaque.ready;
  probe ??= { serverSetup: opaque.server.createSetup(), startLoginRequest: opaque.client.startLogin({ password: 'probe' }).startLoginRequest };
  try {
    opaque.server.startLogin({ serverSetup: probe.serverSetup, userIdentifier: 'probe', registrationRecord: record, startLoginRequest: probe.startLoginRequest });
    return true;
  } catch {
    return false;
  }
}
