/**
 * The LiveKit room that carries a svc room's call. The name starts with the deployment's NATS
 * subject prefix, so several deployments (staging beside production, the test suite's parallel
 * stacks) can share one SFU without meeting in each other's calls.
 */

/** `<prefix>.room.<roomId>`: room ids are `[A-Za-z0-9_-]`, so the last dot ends the prefix. */
export function sfuRoomName(prefix: string, roomId: string): string {
  return `${prefix}.room.${roomId}`;
}

/** The svc room id of an SFU room of this deployment, or undefined for another deployment's room. */
export function roomIdOfSfuRoom(prefix: string, name: string): string | undefined {
  const head = `${prefix}.room.`;
  if (!name.startsWith(head)) return undefined;
  const roomId = name.slice(head.length);
  return /^[A-Za-z0-9_-]{1,128}$/.test(roomId) ? roomId : undefined;
}
