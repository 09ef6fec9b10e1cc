/**
 * The client side of an OPAQUE registration, run by `svc user create-root` and
 * `svc user reset-password`: the password stays in the CLI, the management endpoint answers
 * the one server message (with the service's own server setup), and the record the CLI sends
 * is what the web page's sign-in button (OPAQUE) and the direct transport both check. The
 * password rules are applied here, since the server never sees this password.
 */
import * as opaque from '@serenity-kit/opaque';
import { checkPassword } from '../accounts/password-policy.js';
import type { OpaqueRegistrationView } from '../contracts/management.js';

export async function opaqueRecordFor(
  password: string,
  username: string,
  serverMessage: (registrationRequest: string) => Promise<OpaqueRegistrationView>,
): Promise<string> {
  checkPassword(password, username);
  await opaque.ready;
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
  const { registrationResponse } = await serverMessage(registrationRequest);
  return opaque.client.finishRegistration({ clientRegistrationState, registrationResponse, password }).registrationRecord;
}
