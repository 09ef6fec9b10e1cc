/**
 * Who counts as watching a share: everyone connected to the room's stage (this browser included,
 * by its identity in `present`) but the sharer. Every member watching connects to the stage, so
 * the count is the room's, not the call's. Pure.
 */
export function viewerCount(sharer: string, present: Iterable<string>): number {
  let count = 0;
  for (const identity of new Set(present)) if (identity !== sharer) count += 1;
  return count;
}
