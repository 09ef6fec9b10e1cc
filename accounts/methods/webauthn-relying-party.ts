import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { AppError } from '../../errors/index.js';
import { CHALLENGE_TTL_SECONDS } from './webauthn-challenges.js';

/**
 * The relying party's side of the two WebAuthn ceremonies, over @simplewebauthn/server: the
 * options a browser passes to `navigator.credentials.create/get`, and the checks of what the
 * authenticator answered (challenge, origin, RP ID hash, user presence and verification,
 * signature). Every failure the library reports is the client's, so it becomes
 * `unauthenticated` carrying the library's reason, never a 500.
 *
 * User verification (PIN or biometrics) is required: a passkey here is the whole sign-in, not a
 * second factor, so possession of the device alone must not be enough.
 *
 * The library loads at the first ceremony, not with the accounts: with its X.509 and ASN.1
 * stack (@peculiar/*, tsyringe) it is about 290 CommonJS files and 0.12 s of loading, which
 * every gateway process (and each test file's service) paid whether or not a passkey came.
 */
export interface RelyingParty {
  /** The exact origin browsers run the app on (`webauthn.rp_origin`). */
  origin: string;
  /** The RP ID passkeys are scoped to (`webauthn.rp_id`). */
  id: string;
  /** What authenticators show the user (`webauthn.rp_name`). */
  name: string;
}

/** What a browser's `PublicKeyCredential.toJSON()` gives after `create()`, as the gateway validated it. */
export interface RegistrationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: {
    clientDataJSON: string;
    attestationObject: string;
    authenticatorData?: string | undefined;
    transports?: string[] | undefined;
    publicKeyAlgorithm?: number | undefined;
    publicKey?: string | undefined;
  };
  authenticatorAttachment?: 'platform' | 'cross-platform' | null | undefined;
}

/** What a browser's `PublicKeyCredential.toJSON()` gives after `get()`. */
export interface AuthenticationJSON {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string | null | undefined };
  authenticatorAttachment?: 'platform' | 'cross-platform' | null | undefined;
}

export interface CredentialDescriptor {
  id: string;
  transports: string[];
}

/** A verified new credential, before it gets a name and an owner. */
export interface NewCredential {
  id: string;
  /** COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
}

/** Transports WebAuthn Level 3 defines; browsers may add more, which are ignored, not refused. */
const KNOWN_TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

const TIMEOUT_MS = CHALLENGE_TTL_SECONDS * 1000;

let loaded: Promise<typeof import('@simplewebauthn/server')> | undefined;
/** @simplewebauthn/server, loaded once, at the first call. */
function library(): Promise<typeof import('@simplewebauthn/server')> {
  loaded ??= import('@simplewebauthn/server');
  return loaded;
}

export async function creationOptions(
  rp: RelyingParty,
  input: { userName: string; displayName: string; userHandle?: Uint8Array; exclude: CredentialDescriptor[] },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const { generateRegistrationOptions } = await library();
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: input.userName,
    userDisplayName: input.displayName,
    // Without a handle the library draws a random one: the account does not exist yet at signup.
    ...(input.userHandle ? { userID: new Uint8Array(input.userHandle) } : {}),
    timeout: TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: input.exclude.map(descriptor),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

export async function requestOptions(rp: RelyingParty, allow: CredentialDescriptor[]): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { generateAuthenticationOptions } = await library();
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allow.map(descriptor),
    timeout: TIMEOUT_MS,
    userVerification: 'required',
  });
}

/** Checks an attestation (format `none` included) against the challenge it must answer. */
export async function verifyRegistration(rp: RelyingParty, response: RegistrationJSON, challenge: string): Promise<NewCredential> {
  const json: RegistrationResponseJSON = {
    id: response.id,
    rawId: response.rawId,
    type: response.type,
    response: {
      clientDataJSON: response.response.clientDataJSON,
      attestationObject: response.response.attestationObject,
      ...(response.response.transports ? { transports: response.response.transports } : {}),
    },
    ...(response.authenticatorAttachment ? { authenticatorAttachment: response.authenticatorAttachment } : {}),
    clientExtensionResults: {},
  };
  const { verifyRegistrationResponse } = await library();
  let result;
  try {
    result = await verifyRegistrationResponse({
      response: json,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (err) {
    throw refused('registration', err);
  }
  if (!result.verified) throw new AppError('unauthenticated', 'the passkey registration did not verify: its attestation statement is invalid');
  const { credential } = result.registrationInfo;
  // The id the browser reports must be the one the authenticator put in its signed data.
  if (credential.id !== response.id) {
    throw new AppError('unauthenticated', 'the passkey registration did not verify: response.id is not the credential id in the authenticator data');
  }
  return {
    id: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: (response.response.transports ?? []).filter((t) => KNOWN_TRANSPORTS.has(t)),
  };
}

/**
 * Checks an assertion's challenge, origin, RP ID, flags and signature with the stored public key,
 * and answers the authenticator's signature counter. The counter itself is judged by the
 * caller, in the database, after the signature is known to be good: a refused counter then
 * means a copy of the key, not a forgery.
 */
export async function verifyAssertion(
  rp: RelyingParty,
  response: AuthenticationJSON,
  challenge: string,
  credential: { id: string; publicKey: Uint8Array; transports: string[] },
): Promise<{ counter: number }> {
  const json: AuthenticationResponseJSON = {
    id: response.id,
    rawId: response.rawId,
    type: response.type,
    response: {
      clientDataJSON: response.response.clientDataJSON,
      authenticatorData: response.response.authenticatorData,
      signature: response.response.signature,
      ...(response.response.userHandle ? { userHandle: response.response.userHandle } : {}),
    },
    ...(response.authenticatorAttachment ? { authenticatorAttachment: response.authenticatorAttachment } : {}),
    clientExtensionResults: {},
  };
  const { verifyAuthenticationResponse } = await library();
  let result;
  try {
    result = await verifyAuthenticationResponse({
      response: json,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      // Counter 0 turns the library's own counter check off; ours runs after the signature.
      credential: { id: credential.id, publicKey: new Uint8Array(credential.publicKey), counter: 0, transports: credential.transports },
      requireUserVerification: true,
    });
  } catch (err) {
    throw refused('sign-in', err);
  }
  if (!result.verified) throw new AppError('unauthenticated', "the passkey sign-in did not verify: the signature does not match the passkey's public key");
  return { counter: result.authenticationInfo.newCounter };
}

function descriptor(credential: CredentialDescriptor): { id: string; transports?: string[] } {
  return credential.transports.length > 0 ? { id: credential.id, transports: credential.transports } : { id: credential.id };
}

function refused(ceremony: string, err: unknown): AppError {
  const reason = err instanceof Error ? err.message : String(err);
  return new AppError('unauthenticated', `the passkey ${ceremony} did not verify: ${reason}`, [], { cause: err });
}
