/**
 * Which ICE candidates the call may use. `relay` forces every call through TURN, hiding
 * each participant's address from the others; it is also how the end-to-end tests prove the
 * TURN path. Set per browser with localStorage `svc.voice.iceTransportPolicy` = `relay`.
 */
export const ICE_POLICY_STORAGE_KEY = 'svc.voice.iceTransportPolicy';

export function iceTransportPolicy(): RTCIceTransportPolicy {
  try {
    return localStorage.getItem(ICE_POLICY_STORAGE_KEY) === 'relay' ? 'relay' : 'all';
  } catch {
    return 'all';
  }
}
