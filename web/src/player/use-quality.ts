/**
 * The state of a QualityControl for a view (the quality menu, the player's transcode line),
 * read again each time the control says it changed: hls.js switches rungs on its own in Auto,
 * and the levels are known only once the playlist is read, after the source attached.
 */
import { useEffect, useState } from 'preact/hooks';
import type { QualityChoice, QualityControl } from './quality.js';

export interface QualityState {
  levels: readonly number[];
  current: number | null;
  auto: boolean;
  choice: QualityChoice;
}

const stateOf = (control: QualityControl): QualityState => ({ levels: control.levels, current: control.current, auto: control.auto, choice: control.choice });

export function useQuality(control: QualityControl | null): QualityState | null {
  const [, setVersion] = useState(0);
  useEffect(() => control?.onChange(() => setVersion((version) => version + 1)), [control]);
  return control && stateOf(control);
}
