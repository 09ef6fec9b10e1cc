/**
 * The client side of OPAQUE (RFC 9807) with @serenity-kit/opaque, the same library the server
 * uses (accounts/methods/opaque.ts). It is imported on first use: its WebAssembly is about
 * 250 KiB and would otherwise sit in the initial bundle. The password stays in this module's
 * arguments; only protocol messages go to the server.
 */
import { ApiError } from '../api/errors.js';
import { t } from '../i18n/i18n.js';

type Opaque = typeof import('@serenity-kit/opaque');

let loaded: Promise<Opaque> | null = null;

async function opaque(): Promise<Opaque> {
  loaded ??= import('@serenity-kit/opaque').then(async (module) => {
    await module.ready;
    return module;
  });
  return loaded;
}

/**
 * One registration: `request` is the first message; `finish` turns the server's response into
 * the record to upload. Used by signup, email confirmation, password reset and change alike.
 */
export async function startRegistration(password: string): Promise<{ request: string; finish: (registrationResponse: string) => string }> {
  const lib = await opaque();
  const { clientRegistrationState, registrationRequest } = lib.client.startRegistration({ password });
  return {
    request: registrationRequest,
    finish: (registrationResponse) => lib.client.finishRegistration({ clientRegistrationState, registrationResponse, password }).registrationRecord,
  };
}

/**
 * One login. `finish` gives the proof for the server, or throws the same error the server
 * gives for a wrong password: with OPAQUE the client is the one that finds out, and sends
 * nothing more.
 */
export async function startLogin(password: string): Promise<{ request: string; finish: (loginResponse: string) => string }> {
  const lib = await opaque();
  const { clientLoginState, startLoginRequest } = lib.client.startLogin({ password });
  return {
    request: startLoginRequest,
    finish: (loginResponse) => {
      const finished = lib.client.finishLogin({ clientLoginState, loginResponse, password });
      if (!finished) throw new ApiError({ requestId: '', status: 401, code: 'unauthenticated', message: t('auth.password.invalid') });
      return finished.finishLoginRequest;
    },
  };
}
