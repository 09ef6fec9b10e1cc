/**
 * The room's members, keyed by user id, with what every view and every join asks of them kept
 * up to date as they change: how many have each status, the waiting and the banned, and the
 * active admins. Counting by walking the whole map made each join and each view O(members),
 * so a join storm into a crowd of 10,000 was quadratic (docs/2026-11-30-crowds.md).
 *
 * A Map, so reading it is unchanged; every change goes through `set`, `delete` and `clear`
 * (records are replaced, never edited in place), which keep the indexes.
 */
import type { MemberStatus } from '../../../contracts/room/model.js';
import type { MemberRecord } from '../records.js';

export class MemberRoster extends Map<string, MemberRecord> {
  private readonly counts: Record<MemberStatus, number> = { active: 0, pending: 0, banned: 0 };
  /** Statuses with few members by design (each has a cap), listed in whole by views and pages. */
  private readonly few: Record<Exclude<MemberStatus, 'active'>, Map<string, MemberRecord>> = { pending: new Map(), banned: new Map() };
  private readonly admins = new Map<string, MemberRecord>();

  override set(userId: string, member: MemberRecord): this {
    // A record replaced within its list (a rename) keeps its place there, as in the map itself.
    const list = this.listOf(member);
    const old = this.get(userId);
    if (!old || this.listOf(old) !== list) {
      this.forget(userId);
      this.counts[member.status] += 1;
    }
    list?.set(userId, member);
    super.set(userId, member);
    return this;
  }

  override delete(userId: string): boolean {
    this.forget(userId);
    return super.delete(userId);
  }

  override clear(): void {
    super.clear();
    this.counts.active = this.counts.pending = this.counts.banned = 0;
    this.few.pending.clear();
    this.few.banned.clear();
    this.admins.clear();
  }

  /** How many members have `status`. */
  count(status: MemberStatus): number {
    return this.counts[status];
  }

  /** The members waiting for approval, or the banned, in the order they got that status. */
  withStatus(status: Exclude<MemberStatus, 'active'>): ReadonlyMap<string, MemberRecord> {
    return this.few[status];
  }

  /** The active members holding the admin role, in the order they got it. */
  activeAdmins(): Iterable<MemberRecord> {
    return this.admins.values();
  }

  /** The short list a record belongs in, if any. */
  private listOf(member: MemberRecord): Map<string, MemberRecord> | undefined {
    if (member.status !== 'active') return this.few[member.status];
    return member.role === 'admin' ? this.admins : undefined;
  }

  private forget(userId: string): void {
    const old = this.get(userId);
    if (!old) return;
    this.counts[old.status] -= 1;
    this.listOf(old)?.delete(userId);
  }
}
