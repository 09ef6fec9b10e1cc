/**
 * Shows one subtitle track over the <video>: WebVTT as a native text track (a blob: URL, which
 * the CSP's media-src admits), ASS through JASSUB (libass in WebAssembly, in a worker), drawn on
 * a canvas over the video with the file's own styles. JASSUB is imported only when an ASS track
 * shows, so it stays out of the initial bundle; Vite emits its worker and wasm as same-origin
 * files (script-src has 'wasm-unsafe-eval', worker-src 'self'). Both are kept clear of the
 * player's controls (over-controls.ts, ass-lift.ts).
 */
import { liftAssOverControls } from './ass-lift.js';

export type Hide = () => void;

export function showVtt(video: HTMLVideoElement, text: string, label: string, language: string | undefined): Hide {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/vtt' }));
  const element = document.createElement('track');
  element.kind = 'subtitles';
  element.label = label;
  if (language) element.srclang = language;
  element.src = url;
  element.dataset.subtitle = 'shown';
  video.append(element);
  // Only this track shows: the element's own tracks (from another source) are hidden.
  for (const track of Array.from(video.textTracks)) track.mode = 'disabled';
  element.track.mode = 'showing';
  return () => {
    element.track.mode = 'disabled';
    element.remove();
    URL.revokeObjectURL(url);
  };
}

export async function showAss(video: HTMLVideoElement, text: string): Promise<Hide> {
  const [{ default: JASSUB }, { default: defaultFont }] = await Promise.all([import('jassub'), import('jassub/dist/default.woff2?url')]);
  // The default font (what a line falls back to) is loaded before JASSUB is ready. Otherwise it
  // is fetched when the first line asks for it and that line is drawn without it: a frame drawn
  // while paused stayed empty, as nothing draws it again until the next frame.
  const renderer = new JASSUB({ video, subContent: text, fonts: [defaultFont] });
  // JASSUB adds its canvas next to the video; marked so the page (and tests) can find it.
  renderer._canvas.classList.add('player-ass');
  // JASSUB draws when the video presents a frame (requestVideoFrameCallback). A paused video
  // presents none: a track chosen while paused, or media loaded or seeked while paused, showed
  // no line until playback resumed. Those moments draw the frame that is showing, as does a
  // change of the lines' margins (ass-lift.ts).
  // Not before its worker is ready: a render asked earlier fails inside JASSUB and leaves it
  // busy for good, drawing nothing more. Nor while it is drawing (its `busy`, which its author
  // says to respect): such a render is tried again at the next animation frame.
  let ready = false;
  let hidden = false;
  let unlift: Hide = () => undefined;
  const drawShown = (): void => {
    if (!ready || hidden || video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return;
    if (renderer.busy) {
      requestAnimationFrame(drawShown);
      return;
    }
    const frame = { mediaTime: video.currentTime, width: video.videoWidth, height: video.videoHeight, expectedDisplayTime: performance.now() };
    renderer.manualRender(frame, true).catch(() => undefined);
  };
  const drawPaused = (): void => {
    if (video.paused) drawShown();
  };
  const events = ['seeked', 'loadeddata'] as const;
  for (const event of events) video.addEventListener(event, drawPaused);
  void renderer.ready.then(
    () => {
      if (hidden) return;
      ready = true;
      unlift = liftAssOverControls(video, renderer, text, drawShown);
      drawPaused();
    },
    () => undefined,
  );
  return () => {
    hidden = true;
    unlift();
    for (const event of events) video.removeEventListener(event, drawPaused);
    void renderer.destroy().catch(() => undefined);
  };
}
