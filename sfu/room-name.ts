/**
 * The LiveKit rooms that carry a svc room's media: two per room, because LiveKit grants
 * subscribing whole, not per source. The stage (`stage`: the screens shown) is for every member,
 * as every member sees what plays; the call (`call`: voices and cameras) only for members with
 * use_webrtc. A member without it who joined one room could otherwise receive every track in it.
 * Names start with the deployment's NATS subject prefix, so several deployments (staging beside
 * production, the test suite's parallel stacks) can share one SFU without meeting in each other's calls.
 */
import type { SfuPart } from '../contracts/room/model.js';

export type { SfuPart };
export const SFU_PARTS: readonly SfuPart[] = ['call', 'stage'];

/** `<prefix>.<part>.<roomId>`: room ids are `[A-Za-z0-9_-]`, so the last dot ends the part. */
export function sfuRoomName(prefix: string, roomId: string, part: SfuPart): string {
  return `${prefix}.${part}.${roomId}`;
}

/** The svc room and part of an SFU room of this deployment, or undefined for another deployment's room. */
export function roomOfSfuRoom(prefix: string, name: string): { roomId: string; part: SfuPart } | undefined {
  for (const part of SFU_PARTS) {
    const head = `${prefix}.${part}.`;
    if (!name.startsWith(head)) continue;
    const roomId = name.slice(head.length);
    if (/^[A-Za-z0-9_-]{1,128}$/.test(roomId)) return { roomId, part };
  }
  return undefined;
}
