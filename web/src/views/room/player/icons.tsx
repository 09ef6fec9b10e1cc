/**
 * The player's control icons: inline SVG (no icon font to download, nothing the CSP must allow),
 * drawn in currentColor so they follow the controls' colour. Decorative: the buttons carry the names.
 */
const PATHS = {
  play: 'M8 5v14l11-7z',
  pause: 'M6 5h4v14H6zm8 0h4v14h-4z',
  previous: 'M6 6h2v12H6zm3.5 6 8.5 6V6z',
  next: 'M16 6h2v12h-2zM6 18l8.5-6L6 6z',
  volume: 'M3 9v6h4l5 5V4L7 9zm13.5 3A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4z',
  muted: 'M3 9v6h4l5 5V4L7 9zm13.6 3 2.7-2.7-1.4-1.4-2.7 2.7-2.7-2.7-1.4 1.4 2.7 2.7-2.7 2.7 1.4 1.4 2.7-2.7 2.7 2.7 1.4-1.4z',
  fullscreen: 'M5 5h5v2H7v3H5zm9 0h5v5h-2V7h-3zM5 14h2v3h3v2H5zm12 0h2v5h-5v-2h3z',
  exitFullscreen: 'M8 5h2v5H5V8h3zm6 0h2v3h3v2h-5zM5 14h5v5H8v-3H5zm9 0h5v2h-3v3h-2z',
  theatre: 'M3 6h18v12H3zm2 2v8h14V8z',
  /** Two sliders: the quality menu. */
  quality: 'M3 6h9v2H3zm13 0h5v2h-5zm-3-2h2v6h-2zM3 16h5v2H3zm9 0h9v2h-9zm-3-2h2v6H9z',
  /** A small picture inside the screen: picture-in-picture. */
  pip: 'M3 5h18v14H3zm2 2v10h14V7zm7 5h6v4h-6z',
  /** The small picture beside lines of chat: picture-in-picture with the chat. */
  pipChat: 'M3 5h18v14H3zm2 2v10h14V7zm1 1h6v4H6zm0 6h6v1.5H6zm0 2h4v1.5H6z',
  /** A screen with waves from its corner: play on another screen. */
  cast: 'M3 4h18v16h-7v-2h5V6H5v3H3zm0 7a9 9 0 0 1 9 9h-2a7 7 0 0 0-7-7zm0 4a5 5 0 0 1 5 5H6a3 3 0 0 0-3-3zm0 4a1 1 0 0 1 1 1H3z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon(props: { name: IconName }) {
  return (
    <svg class="icon" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <path d={PATHS[props.name]} fill="currentColor" />
    </svg>
  );
}
