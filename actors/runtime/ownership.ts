/**
 * Ownership of actor ids: the `<prefix>_owners_<type>` KV bucket, one record per active id.
 *
 * Acquiring is a compare-and-set: `create` (fails when a record exists), or, when the record's
 * host no longer holds its liveness, `update` against the revision just read (fails when
 * someone else got there first). The winning write's revision is the fencing token of the
 * activation: the bucket's sequence only grows, so every later owner of any id gets a higher
 * token than every earlier one.
 *
 * The bucket is file-backed, unlike the hosts bucket: the tokens recorded in PostgreSQL
 * outlive a NATS restart, and a memory bucket would restart its revisions at 1, below them,
 * fencing every new activation. Records have no max-age; a live activation's record must
 * never vanish on its own. Released ids leave a delete marker (one small message per id).
 */
import type { JetStreamClient, KV } from 'nats';
import { openBucket, type BucketReplication } from './kv-bucket.js';
import type { HostIdentity, Liveness } from './liveness.js';
import { ownersBucketName } from './names.js';
import { isWrongLastSequence } from './nats-errors.js';
import { decode, encode } from './wire.js';

/** The value of an ownership record. */
export interface OwnerRecord extends HostIdentity {
  /** Wall-clock ms when this owner acquired (or renewed) the id: for operators, and for the retry hint of an owner still activating. */
  since: number;
}

export type Acquisition =
  /**
   * `takenOver`: the record named a host (or an older incarnation of this one) whose liveness was
   * gone. `inherited`: a record was there at all, so the activation before did not release the
   * id (a crash, a lost lease, a fence) and did not end cleanly.
   */
  | { ok: true; revision: number; takenOver: boolean; inherited: boolean }
  | { ok: false; retryAfterMs: number; reason: string; owner?: string };

/** Compare-and-set races lost in a row before giving the caller a retry hint instead. */
const MAX_RACES = 4;
/**
 * An owner that took the id this recently may still be activating, its command subscription not
 * made yet: a command sent now reaches nobody, or only the stale subscription of a paused former
 * owner, where a client that saw that owner go silent would wait until the new owner's lease end
 * (measured: stall failovers of 3.1 s when two hedged activate requests reached two live hosts and
 * the loser answered first). Such an answer's hint is ACTIVATING_RETRY_MS instead: ask again soon.
 */
const ACTIVATING_MS = 1_000;
const ACTIVATING_RETRY_MS = 50;

export class Owners {
  private constructor(
    private readonly kv: KV,
    readonly type: string,
  ) {}

  static async open(js: JetStreamClient, prefix: string, type: string, replication?: BucketReplication): Promise<Owners> {
    const kv = await openBucket(js, { name: ownersBucketName(prefix, type), storage: 'file' }, replication);
    return new Owners(kv, type);
  }

  /** Takes `id` for `self` unless a live host owns it; the revision is the fencing token. */
  async acquire(id: string, liveness: Liveness): Promise<Acquisition> {
    const self = liveness.self;
    const record = encode({ ...self, since: Date.now() } satisfies OwnerRecord);
    // Another host's takeover landed before ours in this very call: it is activating now.
    let lostTakeover = false;
    for (let race = 0; race < MAX_RACES; race++) {
      try {
        return { ok: true, revision: await this.kv.create(id, record), takenOver: false, inherited: false };
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
      }
      const entry = await this.kv.get(id);
      // Released between our create and this read: create again.
      if (!entry || entry.operation !== 'PUT') continue;
      const current = parseRecord(entry.value);
      const ownRecord = current?.hostKey === self.hostKey && current.incarnation === self.incarnation;
      if (current && !ownRecord) {
        const owner = await liveness.hostLiveness(current);
        if (owner.alive) {
          const activating = lostTakeover || Date.now() - current.since < ACTIVATING_MS;
          return activating
            ? { ok: false, retryAfterMs: Math.min(owner.retryAfterMs, ACTIVATING_RETRY_MS), owner: current.hostId, reason: `host ${current.hostId} took it moments ago and may still be activating it` }
            : { ok: false, retryAfterMs: owner.retryAfterMs, owner: current.hostId, reason: `owned by host ${current.hostId}, which may still be serving it` };
        }
      }
      // The owner is dead (or the record is a leftover of this very incarnation): take it over,
      // unless another host's takeover lands first.
      try {
        return { ok: true, revision: await this.kv.update(id, record, entry.revision), takenOver: !ownRecord, inherited: true };
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
        lostTakeover = true;
      }
    }
    return { ok: false, retryAfterMs: 20, reason: 'ownership contended' };
  }

  /**
   * Rewrites an owned record to get a higher revision (a new fencing token) without a gap in
   * ownership. Throws when the record is no longer at `revision` (someone took over).
   */
  renew(id: string, revision: number, liveness: Liveness): Promise<number> {
    return this.kv.update(id, encode({ ...liveness.self, since: Date.now() } satisfies OwnerRecord), revision);
  }

  /** Deletes the record if it is still the one written at `revision`; false when it was not. */
  async release(id: string, revision: number): Promise<boolean> {
    try {
      await this.kv.delete(id, { previousSeq: revision });
      return true;
    } catch (err) {
      if (isWrongLastSequence(err)) return false;
      throw err;
    }
  }

  /** The current owner record of `id`, if any (for diagnostics and tests). */
  async owner(id: string): Promise<(OwnerRecord & { revision: number }) | undefined> {
    const entry = await this.kv.get(id);
    if (!entry || entry.operation !== 'PUT') return undefined;
    const record = parseRecord(entry.value);
    return record ? { ...record, revision: entry.revision } : undefined;
  }
}

function parseRecord(data: Uint8Array): OwnerRecord | undefined {
  const value = decode(data) as Partial<OwnerRecord> | undefined;
  return typeof value?.hostId === 'string' && typeof value.hostKey === 'string' && typeof value.incarnation === 'string'
    ? (value as OwnerRecord)
    : undefined;
}
