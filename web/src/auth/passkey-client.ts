/**
 * The browser side of passkeys with @simplewebauthn/browser, imported on first use. Its answers
 * are the credentials' JSON form, which the API's schemas describe field by field; the casts
 * bridge the library's DOM-typed declarations and the generated API types of the same JSON.
 */
import type { Schemas } from '../api/types.js';
import { t } from '../i18n/i18n.js';

type CreationOptions = Schemas['PasskeyCreationOptions'];
type RequestOptions = Schemas['PasskeyRequestOptions'];

/** The platform's prompt to create a passkey (signup, or adding one on the account page). */
export async function createPasskey(options: CreationOptions): Promise<Schemas['PasskeyRegistrationResponse']> {
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  return response as unknown as Schemas['PasskeyRegistrationResponse'];
}

/** The platform's prompt to use a passkey (sign-in). */
export async function usePasskey(options: RequestOptions): Promise<Schemas['PasskeyAuthenticationResponse']> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const response = await startAuthentication({ optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
  return response as unknown as Schemas['PasskeyAuthenticationResponse'];
}

/** Whether this browser can make passkeys at all (older browsers, some embedded views cannot). */
export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === 'function';
}

/**
 * The browser's own refusals (the person closed the prompt, no authenticator, timeout) as a
 * sentence in the page's language; simplewebauthn names them in `name`/`code` of the error it throws.
 */
export function passkeyProblem(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (error.name === 'NotAllowedError') return t('auth.passkey.closed');
  if (error.name === 'InvalidStateError') return t('auth.passkey.alreadyHeld');
  if (error.name === 'NotSupportedError' || error.name === 'SecurityError') return t('auth.passkey.notHere');
  return null;
}
