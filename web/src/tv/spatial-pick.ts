/**
 * Which box an arrow key leads to, as geometry only (no DOM, so the root tsconfig compiles it for
 * unit tests). The rules are Android's FocusFinder, which TV apps have lived with for a decade
 * (frameworks/base core/java/android/view/FocusFinder.java): a candidate must lie that way (its
 * far edge beyond the focused box's, its near edge past the focused box's near edge); one in the
 * "beam" (its span across the key's axis overlaps the focused box's) beats one outside it
 * (sideways always; up and down unless the other one ends before it starts); otherwise the
 * smaller 13 × (gap along the axis)² + (offset of the centres across it)² wins. Ties keep the
 * candidates' order (document order): reading order decides between equals.
 */

export type Direction = 'up' | 'down' | 'left' | 'right';

export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface Candidate<T> {
  box: Box;
  item: T;
}

/** How much more the gap along the key's axis counts than the offset across it (FocusFinder's weight). */
const ALONG_WEIGHT = 13;

export function pickInDirection<T>(from: Box, candidates: readonly Candidate<T>[], direction: Direction): T | null {
  let best: Candidate<T> | null = null;
  for (const candidate of candidates) {
    if (!lies(from, candidate.box, direction)) continue;
    if (!best || better(from, candidate.box, best.box, direction)) best = candidate;
  }
  return best?.item ?? null;
}

const vertical = (direction: Direction): boolean => direction === 'up' || direction === 'down';

/** Whether `box` lies in `direction` from `from` (FocusFinder.isCandidate). */
function lies(from: Box, box: Box, direction: Direction): boolean {
  switch (direction) {
    case 'down':
      return (from.top < box.top || from.bottom <= box.top) && from.bottom < box.bottom;
    case 'up':
      return (from.bottom > box.bottom || from.top >= box.bottom) && from.top > box.top;
    case 'right':
      return (from.left < box.left || from.right <= box.left) && from.right < box.right;
    case 'left':
      return (from.right > box.right || from.left >= box.right) && from.left > box.left;
  }
}

/** Whether `a` is a better place to go than `b` (both lie that way). */
function better(from: Box, a: Box, b: Box, direction: Direction): boolean {
  if (beamBeats(from, a, b, direction)) return true;
  if (beamBeats(from, b, a, direction)) return false;
  return weighted(from, a, direction) < weighted(from, b, direction);
}

function inBeam(from: Box, box: Box, direction: Direction): boolean {
  return vertical(direction) ? box.right > from.left && box.left < from.right : box.bottom > from.top && box.top < from.bottom;
}

function beamBeats(from: Box, a: Box, b: Box, direction: Direction): boolean {
  if (!inBeam(from, a, direction) || inBeam(from, b, direction)) return false;
  if (!whollyBeyond(from, b, direction)) return true;
  if (!vertical(direction)) return true;
  return along(from, a, direction) < alongToFarEdge(from, b, direction);
}

function whollyBeyond(from: Box, box: Box, direction: Direction): boolean {
  switch (direction) {
    case 'down':
      return from.bottom <= box.top;
    case 'up':
      return from.top >= box.bottom;
    case 'right':
      return from.right <= box.left;
    case 'left':
      return from.left >= box.right;
  }
}

/** The gap along the key's axis, from the focused box's edge to the candidate's near edge (0 when they overlap). */
function along(from: Box, box: Box, direction: Direction): number {
  switch (direction) {
    case 'down':
      return Math.max(0, box.top - from.bottom);
    case 'up':
      return Math.max(0, from.top - box.bottom);
    case 'right':
      return Math.max(0, box.left - from.right);
    case 'left':
      return Math.max(0, from.left - box.right);
  }
}

function alongToFarEdge(from: Box, box: Box, direction: Direction): number {
  switch (direction) {
    case 'down':
      return Math.max(1, box.bottom - from.bottom);
    case 'up':
      return Math.max(1, from.top - box.top);
    case 'right':
      return Math.max(1, box.right - from.right);
    case 'left':
      return Math.max(1, from.left - box.left);
  }
}

function weighted(from: Box, box: Box, direction: Direction): number {
  const gap = along(from, box, direction);
  const offset = vertical(direction) ? centreX(box) - centreX(from) : centreY(box) - centreY(from);
  return ALONG_WEIGHT * gap * gap + offset * offset;
}

/** The candidate whose centre is nearest `to`'s centre (where focus goes when its element vanished). */
export function nearest<T>(to: Box, candidates: readonly Candidate<T>[]): T | null {
  let best: Candidate<T> | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = Math.hypot(centreX(candidate.box) - centreX(to), centreY(candidate.box) - centreY(to));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best?.item ?? null;
}

const centreX = (box: Box): number => (box.left + box.right) / 2;
const centreY = (box: Box): number => (box.top + box.bottom) / 2;
