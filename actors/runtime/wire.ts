/**
 * What travels between clients and hosts, and its JSON encoding. Messages from the network are
 * checked for shape before use: a malformed message must never crash a host.
 */
import { AppError, isAppError } from '../../errors/index.js';
import { classifyDatabaseError } from '../../postgres/index.js';
import type { Caller, CommandEnvelope, CommandReply } from './actor-type.js';

/**
 * The version of the command and event envelopes this build sends and understands (their `v`).
 * A message without `v` is version 1 (builds before the field sent none). Additive changes
 * (new optional fields) keep the version; a breaking change bumps it, and hosts are rolled out
 * before gateways. A host answers a command of a version it does not know with a final
 * `unavailable` naming both versions; `ActorEvents` drops events of an unknown version.
 * See `docs/2026-11-22-actor-protocol.md`.
 */
export const PROTOCOL_VERSION = 1;

/** Request on `<prefix>.<type>.activate`. */
export interface ActivateRequest {
  id: string;
}

/**
 * Reply to an activate request. `ok: false` always means "try again after `retryAfterMs`":
 * the actor is owned by a live host elsewhere, being released, or this host cannot take it
 * right now. `owner` names the current owner when known; `reason` says why, for logs and the
 * client's final error.
 */
export type ActivateReply =
  | { ok: true; hostId: string }
  | { ok: false; retryAfterMs: number; owner?: string; reason: string };

/** The error part of a failed CommandReply. */
export type ReplyError = Extract<CommandReply, { ok: false }>['error'];

const decoder = new TextDecoder();

/**
 * JSON text, which nats.js encodes into bytes itself as it publishes. Kept as text because a
 * host remembers its recent replies for seconds: one ArrayBuffer per remembered reply made
 * every garbage collection of a busy host slower.
 */
export function encode(value: unknown): string {
  return JSON.stringify(value);
}

/** Parses a JSON payload; undefined when it is not JSON. */
export function decode(data: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(data)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The wire form of an error thrown by an actor: typed errors keep their code, a database that
 * cannot be reached is `unavailable` (retry), others are `internal`.
 */
export function replyError(thrown: unknown): ReplyError {
  const err = classifyDatabaseError(thrown, 'command', { detail: false });
  if (isAppError(err)) {
    return {
      code: err.code,
      message: err.message,
      ...(err.issues.length > 0 ? { issues: err.issues } : {}),
    };
  }
  return { code: 'internal', message: 'internal error' };
}

/**
 * The reply to a command its actor ran: the live answer and the one recorded for retries
 * (record-result.ts) are this same value, so every copy of a reply agrees.
 */
export function resultReply<R>(result: R, seq: number): CommandReply<R | null> {
  return { ok: true, result: result === undefined ? null : result, seq };
}

/** A reply telling the client this host did not run the command and it should re-resolve the actor. */
export function notHereReply(reason: string, retryAfterMs: number): CommandReply<never> {
  return { ok: false, error: { code: 'unavailable', message: reason }, retryAfterMs };
}

/**
 * The envelope in `payload`, or the AppError to answer: `unavailable` for a protocol version
 * this build does not speak (final: the client must not retry it elsewhere in a loop), else
 * `invalid_argument` describing what is wrong.
 */
export function parseEnvelope(payload: unknown): CommandEnvelope | AppError {
  if (!isObject(payload)) return AppError.invalid([{ key: 'envelope', message: 'must be a JSON object' }]);
  // Checked first: another version's envelope may differ in every other field.
  const version = versionOf(payload);
  if (version === undefined) return AppError.invalid([{ key: 'v', message: 'must be a positive integer when given' }]);
  if (version !== PROTOCOL_VERSION) {
    return new AppError('unavailable', `protocol version ${version} is not supported by this actor host (it speaks ${PROTOCOL_VERSION})`);
  }
  const issues: Array<{ key: string; message: string }> = [];
  if (typeof payload.id !== 'string' || payload.id.length === 0 || payload.id.length > 200) {
    issues.push({ key: 'id', message: 'must be a non-empty string of at most 200 characters' });
  }
  if (typeof payload.deadline !== 'number' || !Number.isFinite(payload.deadline)) {
    issues.push({ key: 'deadline', message: 'must be a number (ms since epoch)' });
  }
  if (payload.sentAt !== undefined && (typeof payload.sentAt !== 'number' || !Number.isFinite(payload.sentAt))) {
    issues.push({ key: 'sentAt', message: 'must be a number (ms since epoch) when given' });
  }
  if (!('command' in payload)) issues.push({ key: 'command', message: 'is required' });
  if (!isCaller(payload.caller)) issues.push({ key: 'caller', message: 'must be an object with a string userId' });
  return issues.length > 0 ? AppError.invalid(issues) : (payload as unknown as CommandEnvelope);
}

export function parseActivateRequest(payload: unknown): ActivateRequest | undefined {
  return isObject(payload) && typeof payload.id === 'string' ? { id: payload.id } : undefined;
}

export function parseActivateReply(payload: unknown): ActivateReply | undefined {
  if (!isObject(payload)) return undefined;
  if (payload.ok === true && typeof payload.hostId === 'string') return { ok: true, hostId: payload.hostId };
  if (payload.ok === false && typeof payload.retryAfterMs === 'number') {
    return {
      ok: false,
      retryAfterMs: payload.retryAfterMs,
      reason: typeof payload.reason === 'string' ? payload.reason : 'not activated',
      ...(typeof payload.owner === 'string' ? { owner: payload.owner } : {}),
    };
  }
  return undefined;
}

export function parseCommandReply(payload: unknown): CommandReply | undefined {
  if (!isObject(payload)) return undefined;
  if (payload.ok === true && typeof payload.seq === 'number') return payload as unknown as CommandReply;
  if (payload.ok === false && isObject(payload.error) && typeof payload.error.code === 'string') {
    return payload as unknown as CommandReply;
  }
  return undefined;
}

/**
 * The protocol version of a command or event envelope: 1 when `v` is missing, undefined when
 * `v` is not a positive integer.
 */
export function versionOf(envelope: { v?: unknown }): number | undefined {
  const { v } = envelope;
  if (v === undefined) return 1;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 1 ? v : undefined;
}

/**
 * The UTF-8 size of `data` when it is over `limit` bytes (NATS's `max_payload`), else
 * undefined. Cheap for the usual small payload: a string's length is a lower bound of its
 * UTF-8 bytes and three times it an upper bound, so bytes are counted only above a third of it.
 */
export function bytesOverLimit(data: string, limit: number | undefined): number | undefined {
  if (limit === undefined || data.length * 3 <= limit) return undefined;
  const bytes = Buffer.byteLength(data, 'utf8');
  return bytes > limit ? bytes : undefined;
}

function isCaller(value: unknown): value is Caller {
  return isObject(value) && typeof value.userId === 'string';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
