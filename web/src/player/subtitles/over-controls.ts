/**
 * Subtitles kept clear of the player's controls: the controls lie over the video's bottom edge,
 * where most subtitles sit, and always show while paused. Native cues and ASS lines that the
 * file leaves at the bottom move up while the controls show and back down when they hide; what
 * the file placed itself stays where it is.
 */

/**
 * Calls `changed` now and whenever the controls of the player around `video` show, hide or
 * resize, or the video resizes, with the controls (null when the video is in no player) and
 * whether they show.
 */
export function followControls(video: HTMLVideoElement, changed: (controls: HTMLElement | null, shown: boolean) => void): () => void {
  const controls = video.closest('.player')?.querySelector<HTMLElement>('.player-controls') ?? null;
  if (!controls) {
    changed(null, false);
    return () => undefined;
  }
  const apply = () => changed(controls, !controls.classList.contains('is-hidden') || controls.matches(':focus-within'));
  const classes = new MutationObserver(apply);
  classes.observe(controls, { attributes: true, attributeFilter: ['class'] });
  const sizes = new ResizeObserver(apply);
  sizes.observe(video);
  sizes.observe(controls);
  // Cues arrive when a track element loads; the picture's size when the media's metadata does.
  video.addEventListener('load', apply, true);
  video.addEventListener('loadedmetadata', apply);
  controls.addEventListener('focusin', apply);
  controls.addEventListener('focusout', apply);
  apply();
  return () => {
    classes.disconnect();
    sizes.disconnect();
    video.removeEventListener('load', apply, true);
    video.removeEventListener('loadedmetadata', apply);
    controls.removeEventListener('focusin', apply);
    controls.removeEventListener('focusout', apply);
  };
}

/**
 * Native cues: those at their default place (`line: auto`) move up by the controls' height;
 * cues the file placed (a `line:` setting) stay.
 */
export function liftCuesOverControls(video: HTMLVideoElement): () => void {
  const placed = new WeakSet<VTTCue>();
  return followControls(video, (controls, shown) => {
    const share = controls && video.clientHeight > 0 ? (controls.offsetHeight / video.clientHeight) * 100 : 0;
    for (const track of Array.from(video.textTracks)) {
      if (track.mode !== 'showing') continue;
      for (const cue of Array.from(track.cues ?? []) as VTTCue[]) {
        if (cue.line !== 'auto' && !placed.has(cue)) continue;
        placed.add(cue);
        if (!shown || share === 0) {
          cue.snapToLines = true;
          cue.line = 'auto';
        } else {
          cue.snapToLines = false;
          cue.lineAlign = 'end';
          cue.line = Math.max(10, 100 - share - 2);
        }
      }
    }
  });
}

/**
 * How many CSS pixels of the picture (the video's frame as drawn, letterboxing left out) the
 * controls cover: what a line at the picture's bottom edge must rise by to be clear of them.
 */
export function picturePixelsUnder(video: HTMLVideoElement, controls: HTMLElement): { covered: number; pictureHeight: number } {
  const box = video.getBoundingClientRect();
  if (box.height === 0 || box.width === 0) return { covered: 0, pictureHeight: 0 };
  // object-fit: contain, as JASSUB assumes when it lays its canvas over the picture.
  const ratio = video.videoWidth > 0 && video.videoHeight > 0 ? video.videoWidth / video.videoHeight : box.width / box.height;
  const pictureHeight = box.width / box.height > ratio ? box.height : box.width / ratio;
  const pictureBottom = box.top + (box.height + pictureHeight) / 2;
  const covered = Math.min(pictureHeight, Math.max(0, pictureBottom - controls.getBoundingClientRect().top));
  return { covered, pictureHeight };
}
