/**
 * ASS lines kept clear of the player's controls. JASSUB draws on a canvas the size of the
 * picture, in the positions the file gives; the controls cover the picture's bottom edge while
 * they show (always, while paused). Moving or shrinking the canvas would move every line, signs
 * at the top too, or shrink the text. Instead the lines at the bottom get a larger vertical
 * margin while the controls show, so libass lays them out above the controls: as for native
 * cues, what the file placed elsewhere (top or middle lines, \pos, \move) stays.
 *
 * The script is given to JASSUB again with the margins changed, rather than styles changed
 * in place: libass keeps a line that is already showing where it first laid it out (so lines
 * do not jump as others come and go), and a style changed in place moved no line on screen.
 */
import type JASSUB from 'jassub';
import { bottomLines, liftedScript, scriptHeight } from './ass-margins.js';
import { followControls, picturePixelsUnder } from './over-controls.js';

/**
 * Follows the controls over `video` and lifts the bottom lines of the script `text`,
 * which `renderer` shows, above them; `redraw` draws the frame showing again. Call once JASSUB
 * is ready.
 */
export function liftAssOverControls(video: HTMLVideoElement, renderer: JASSUB, text: string, redraw: () => void): () => void {
  const height = scriptHeight(text);
  // Read once: the controls show and hide at every pause, and a fansub script can be megabytes.
  const script = bottomLines(text);
  let wanted = 0;
  let applied = 0;
  let busy = false;
  let stopped = false;
  // One script at a time, always the latest wish: the controls may show and hide again while
  // the worker still reads the last one.
  const settle = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    try {
      while (!stopped && applied !== wanted) {
        const lift = wanted;
        await renderer.renderer.setTrack(liftedScript(script, lift));
        applied = lift;
        if (!stopped) redraw();
      }
    } catch {
      // The renderer was destroyed meanwhile (the track hidden): nothing left to lift.
    } finally {
      busy = false;
    }
  };
  const unfollow = followControls(video, (controls, shown) => {
    const { covered, pictureHeight } = controls && shown ? picturePixelsUnder(video, controls) : { covered: 0, pictureHeight: 0 };
    wanted = pictureHeight > 0 ? Math.ceil((covered / pictureHeight) * height) : 0;
    void settle();
  });
  return () => {
    stopped = true;
    unfollow();
  };
}
