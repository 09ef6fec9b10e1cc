/**
 * The bitrates the call publishes within the grant's limits (CallGrant.limits, in kbit/s): the
 * microphone first, then a screen share (what the whole room watches), then the camera from
 * what is left of the member's cap. A simulcast sender uploads every layer at once, so a track's
 * cap is the sum of its layers: the top layer takes most of it and the low layer (what a phone
 * or a small tile receives, picked by the SFU with adaptive stream and dynacast) the rest.
 * Pure, so its arithmetic is tested without a browser.
 */

export interface CallLimits {
  memberKbps: number;
  shareKbps: number;
  cameraKbps: number;
}

/** One simulcast layer: its size, bitrate cap (bit/s) and frame rate. */
export interface Layer {
  width: number;
  height: number;
  maxBitrate: number;
  maxFramerate: number;
}

/** What one video track sends: its top layer and the lower ones (lowest first), or null when nothing may be sent. */
export interface VideoPlan {
  top: Layer;
  lower: Layer[];
}

export interface CallBudget {
  /** Opus cap for the microphone (bit/s); 0: no room for it. */
  microphone: number;
  camera: VideoPlan | null;
  /** The screen's video; its audio takes `screenAudio` of the share's cap. */
  screen: VideoPlan | null;
  screenAudio: number;
}

/** Speech in Opus is clear at 32 kbit/s (the mesh voice's figure, docs/2026-11-23-webrtc-voice.md). */
const MICROPHONE_BPS = 32_000;
/** A tab's sound (music, a film) in stereo Opus. */
const SCREEN_AUDIO_BPS = 64_000;
/** Below this a video layer is a slideshow; a track that cannot have it is sent as one layer or not at all. */
const MIN_LAYER_BPS = 50_000;
/** The low layer's share of a track's cap. */
const LOW_SHARE = 0.25;

/** Camera: small tiles in a grid of up to a dozen, so 360p is the most anyone sees of one. */
export const CAMERA_SIZE = { width: 640, height: 360, fps: 24 } as const;
const CAMERA_LOW = { width: 320, height: 180, fps: 15 } as const;
/**
 * Below this a 360p camera is mush: a room with a low camera cap (sfu.cameraMaxKbps) captures and
 * sends one small layer instead, which also costs every member's browser far less to encode and decode.
 */
export const CAMERA_FULL_MIN_BPS = 400_000;
export const CAMERA_SMALL = { width: 320, height: 180, fps: 12 } as const;
/**
 * A screen: text must stay legible on the top layer, and in a watch party the screen is often a
 * game or a video playing in a tab, so it moves at 30 fps (the encoder gives up frames, not
 * sharpness, when it runs short: contentHint `detail`). The low layer is for phones.
 */
export const SCREEN_SIZE = { width: 1920, height: 1080, fps: 30 } as const;
const SCREEN_LOW = { width: 640, height: 360, fps: 15 } as const;

type Size = { readonly width: number; readonly height: number; readonly fps: number };

/** A video track's layers within `bps`: two layers when the low one gets its minimum, else one; null below one layer's minimum. */
export function videoPlan(bps: number, top: Size, low: Size): VideoPlan | null {
  if (bps < MIN_LAYER_BPS) return null;
  const layer = (size: Size, bitrate: number): Layer => ({ width: size.width, height: size.height, maxBitrate: Math.floor(bitrate), maxFramerate: size.fps });
  const lowBps = bps * LOW_SHARE;
  if (lowBps < MIN_LAYER_BPS || bps - lowBps < MIN_LAYER_BPS) return { top: layer(top, bps), lower: [] };
  return { top: layer(top, bps - lowBps), lower: [layer(low, lowBps)] };
}

/** The sum of a plan's layers (what it uploads at most), in bit/s. */
export function planBps(plan: VideoPlan | null): number {
  return plan ? plan.top.maxBitrate + plan.lower.reduce((sum, layer) => sum + layer.maxBitrate, 0) : 0;
}

/**
 * The budget for what the member publishes. `sharing`: a share is (or is about to be) on, so the
 * camera gets only what the microphone and the share leave of the member's cap.
 */
export function callBudget(limits: CallLimits, sharing: boolean): CallBudget {
  let left = limits.memberKbps * 1000;
  const microphone = Math.min(MICROPHONE_BPS, left);
  left -= microphone;
  let screen: VideoPlan | null = null;
  let screenAudio = 0;
  if (sharing) {
    const share = Math.min(limits.shareKbps * 1000, left);
    screenAudio = share >= SCREEN_AUDIO_BPS + MIN_LAYER_BPS ? SCREEN_AUDIO_BPS : 0;
    screen = videoPlan(share - screenAudio, SCREEN_SIZE, SCREEN_LOW);
    left -= screenAudio + planBps(screen);
  }
  const camera = cameraPlan(Math.min(limits.cameraKbps * 1000, left));
  return { microphone, camera, screen, screenAudio };
}

/** A camera within `bps`: 360p over 180p with room for both, else one small layer; the capture size is the top layer's. */
export function cameraPlan(bps: number): VideoPlan | null {
  if (bps >= CAMERA_FULL_MIN_BPS) return videoPlan(bps, CAMERA_SIZE, CAMERA_LOW);
  if (bps < MIN_LAYER_BPS) return null;
  return { top: { width: CAMERA_SMALL.width, height: CAMERA_SMALL.height, maxBitrate: Math.floor(bps), maxFramerate: CAMERA_SMALL.fps }, lower: [] };
}
