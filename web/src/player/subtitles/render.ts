/**
 * Shows one subtitle track over the <video>: WebVTT as a native text track (a blob: URL, which
 * the CSP's media-src admits), ASS through JASSUB (libass in WebAssembly, in a worker), drawn on
 * a canvas over the video with the file's own styles. JASSUB is imported only when an ASS track
 * shows, so it stays out of the initial bundle; Vite emits its worker and wasm as same-origin
 * files (script-src has 'wasm-unsafe-eval', worker-src 'self').
 */
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
  const { default: JASSUB } = await import('jassub');
  const renderer = new JASSUB({ video, subContent: text });
  // JASSUB adds its canvas next to the video; marked so the page (and tests) can find it.
  renderer._canvas.classList.add('player-ass');
  return () => void renderer.destroy().catch(() => undefined);
}
