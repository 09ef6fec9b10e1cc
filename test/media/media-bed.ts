/**
 * What the media proxy tests share: a service whose proxy may reach loopback upstreams
 * (`media_proxy.allowed_networks` = 127.0.0.0/8, as an operator would allow a local origin),
 * a room with an owner, and steps to add an item, ask how to play it and read it through the proxy.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join as joinPath } from 'node:path';
import { waitFor } from '../fixtures/deadline.js';
import { startGatewayBed, type GatewayBed, type Member } from '../gateways/bed.js';
import type { Role } from '../../server/roles.js';

export interface PlaySource {
  url: string;
  type: string;
  headers?: Record<string, string>;
}
export interface PlayInfo {
  sources: PlaySource[];
  proxied: boolean;
  live: boolean;
  expiresAt: number | null;
}

export async function startMediaBed(label: string, env: Record<string, string> = {}, roles?: Role[]): Promise<GatewayBed> {
  return startGatewayBed(label, { env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8', ...env }, ...(roles ? { roles } : {}) });
}

export async function createRoom(bed: GatewayBed, owner: Member): Promise<string> {
  const answer = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Media room' }, owner.token);
  if (answer.status !== 201) throw new Error(`create failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.room.id;
}

export async function join(bed: GatewayBed, roomId: string, member: Member): Promise<void> {
  const joined = await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
  if (joined.status !== 200) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
}

export async function addItem(bed: GatewayBed, roomId: string, owner: Member, fields: Record<string, unknown>): Promise<string> {
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Item', ...fields }, owner.token);
  if (added.status !== 201) throw new Error(`add failed: ${added.status} ${JSON.stringify(added.body)}`);
  return added.body.item.id;
}

export async function playInfo(bed: GatewayBed, roomId: string, mediaId: string, member: Member): Promise<PlayInfo> {
  const answer = await bed.call<PlayInfo>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/play`, undefined, member.token);
  if (answer.status !== 200) throw new Error(`play failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The proxied URL of an item, absolute. */
export async function proxiedUrl(bed: GatewayBed, roomId: string, mediaId: string, member: Member): Promise<string> {
  const info = await playInfo(bed, roomId, mediaId, member);
  if (!info.proxied) throw new Error('expected a proxied source');
  return new URL(info.sources[0]!.url, bed.url).href;
}

export async function read(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const response = await fetch(url, { method, headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A folder with one random file of `size` bytes. */
export async function randomFile(name: string, size: number): Promise<{ dir: string; bytes: Buffer }> {
  const dir = await mkdtemp(joinPath(tmpdir(), 'svc-media-files-'));
  const bytes = randomBytes(size);
  await writeFile(joinPath(dir, name), bytes);
  return { dir, bytes };
}

/** Polls `check` until it holds or `ms` pass; true when it held. For states that change soon, not at once. */
export function eventually(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  return waitFor('a condition', async () => ((await check()) ? true : undefined), ms, 250).then(
    () => true,
    () => false,
  );
}
