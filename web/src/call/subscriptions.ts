/**
 * Which tracks of the call this browser receives, and who counts as watching the stage. A member
 * who only watches a share (connected for the stage, not in the call) receives the screens and
 * their sound; one in the call receives everything: voices and cameras too. The call subscribes
 * by hand (LiveKit's autoSubscribe off) following this rule. Pure: sources are LiveKit's
 * Track.Source strings, the same as contracts' CALL_SOURCES.
 */

const STAGE_SOURCES = new Set(['screen_share', 'screen_share_audio']);

export function wantsSource(source: string, inCall: boolean): boolean {
  return inCall || STAGE_SOURCES.has(source);
}

/**
 * The people watching a share: everyone connected to the call (this browser included, by its
 * identity in `present`) but the sharer.
 */
export function viewerCount(sharer: string, present: Iterable<string>): number {
  let count = 0;
  for (const identity of new Set(present)) if (identity !== sharer) count += 1;
  return count;
}
