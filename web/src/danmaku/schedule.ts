/**
 * Which danmaku comments come due as the player's time moves: those whose position the time
 * has just passed, playing forward. A jump (a seek, a new item, a stall caught up) shows
 * nothing of what lies between, as a viewer who skips a scene does not see its comments all
 * at once. Pure, so the rule is tested without a browser.
 */
import type { DanmakuComment } from '../../../contracts/room/model.js';

/** A forward step longer than this is a jump, not playback (timers run late in a busy tab). */
export const MAX_STEP_SECONDS = 1.5;

export class DanmakuSchedule {
  private comments: DanmakuComment[] = [];
  private last: number | null = null;

  /** Replaces the item's comments (as listed: by position). */
  load(comments: DanmakuComment[]): void {
    this.comments = [...comments].sort((a, b) => a.position - b.position);
    this.last = null;
  }

  /** Adds one that arrived live; false when it was known already. */
  add(comment: DanmakuComment): boolean {
    if (this.comments.some((known) => known.id === comment.id)) return false;
    const at = this.comments.findIndex((known) => known.position > comment.position);
    if (at < 0) this.comments.push(comment);
    else this.comments.splice(at, 0, comment);
    return true;
  }

  get size(): number {
    return this.comments.length;
  }

  /** The comments due between the previous call's time and `now` (seconds). */
  advance(now: number): DanmakuComment[] {
    const last = this.last;
    this.last = now;
    if (last === null || now <= last || now - last > MAX_STEP_SECONDS) return [];
    return this.comments.filter((comment) => comment.position > last && comment.position <= now);
  }
}
