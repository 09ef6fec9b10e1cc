/**
 * One video track of the call in a <video> element (muted: its sound, if any, plays apart).
 * LiveKit watches the attached element's size and visibility (adaptive stream), so a small tile
 * or a phone's narrow stage asks the SFU for a lower simulcast layer and a hidden one for none.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Track } from 'livekit-client';

export function TrackVideo(props: { track: Track; label: string; class?: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const { track } = props;
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    track.attach(element);
    return () => {
      track.detach(element);
    };
  }, [track]);
  return <video ref={ref} class={props.class} aria-label={props.label} autoPlay playsInline muted data-source={track.source} />;
}
