/**
 * Every name the runtime puts on NATS: subjects, the activation queue group, KV bucket names
 * and keys. Kept in one place so a host and a client of another process always agree.
 */
import { createHash } from 'node:crypto';
import { AppError } from '../../errors/index.js';

/** Actor ids are one subject token and one KV key: no dots, wildcards or spaces. */
const ACTOR_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** Type names also end up in a KV bucket name, which allows only `[-\w]`. */
const TYPE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Characters a KV bucket name may hold. */
const BUCKET_SAFE = /[^A-Za-z0-9_-]/g;
/** Characters a KV key may hold (NATS KV: `[-/_=.a-zA-Z0-9]+`). */
const KEY_SAFE = /[^A-Za-z0-9_=.-]/g;

export function isValidActorId(id: unknown): id is string {
  return typeof id === 'string' && ACTOR_ID.test(id);
}

/** Throws `invalid_argument` naming the id field (`key`) when `id` cannot address an actor. */
export function assertActorId(id: unknown, key = 'id'): asserts id is string {
  if (!isValidActorId(id)) {
    throw AppError.invalid([{ key, message: 'must be 1 to 128 characters of A-Z, a-z, 0-9, "_" or "-"' }]);
  }
}

export function assertTypeName(name: string): void {
  if (!TYPE_NAME.test(name)) {
    throw AppError.invalid([{ key: 'type', message: `"${name}" must be 1 to 64 characters of A-Z, a-z, 0-9, "_" or "-"` }]);
  }
}

/** `<prefix>.<type>.<id>.cmd`: request/reply, subscribed by the live activation only. */
export function commandSubject(prefix: string, type: string, id: string): string {
  return `${prefix}.${type}.${id}.cmd`;
}

/** `<prefix>.<type>.<id>.evt`: the actor's events. */
export function eventSubject(prefix: string, type: string, id: string): string {
  return `${prefix}.${type}.${id}.evt`;
}

/**
 * `<prefix>._liveness.<incarnation>`: answered by the host of that incarnation on the NATS
 * connection that carries its activations, for as long as it may serve them. A request that
 * finds no responder there proves that connection is gone (see liveness-probe.ts).
 */
export function livenessProbeSubject(prefix: string, incarnation: string): string {
  return `${prefix}._liveness.${incarnation}`;
}

/** `<prefix>.<type>.activate`: request/reply served by the host pool of the type. */
export function activateSubject(prefix: string, type: string): string {
  return `${prefix}.${type}.activate`;
}

/** The queue group every host of the type joins on the activate subject. */
export function hostsQueueGroup(prefix: string, type: string): string {
  return `${prefix}.${type}.hosts`;
}

/** `<prefix>_hosts`: liveness keys, one per host, with the bucket max-age as lease TTL. */
export function hostsBucketName(prefix: string): string {
  return `${bucketToken(prefix)}_hosts`;
}

/** `<prefix>_owners_<type>`: one ownership record per active actor id. */
export function ownersBucketName(prefix: string, type: string): string {
  return `${bucketToken(prefix)}_owners_${type}`;
}

/** `<prefix>_live`: where each running livestream is published (gateways/rtmp/live-registry.ts). */
export function liveBucketName(prefix: string): string {
  return `${bucketToken(prefix)}_live`;
}

/**
 * A host id as a KV key. Replica ids are usually `<hostname>-<pid>-<hex>` and pass unchanged; any
 * other character is replaced and a digest of the original appended so two ids never meet.
 */
export function hostKey(hostId: string): string {
  const safe = hostId.replace(KEY_SAFE, '_');
  return safe === hostId && safe.length > 0 && safe.length <= 200 ? safe : `${safe.slice(0, 180)}_${digest(hostId)}`;
}

/**
 * The subject prefix as a bucket-name token. A prefix such as `prod.svc` becomes
 * `prod_svc_<digest>`: dots are not allowed in bucket names, and the digest keeps `prod.svc`
 * and a literal `prod_svc` apart on a shared NATS.
 */
function bucketToken(prefix: string): string {
  const safe = prefix.replace(BUCKET_SAFE, '_');
  return safe === prefix ? safe : `${safe}_${digest(prefix)}`;
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}
