/** The player's status line: what the room is doing and why, in words. */
import type { ConnectionStatus } from '../realtime/connection.js';
import type { MemberRoomView } from '../state/room-view.js';

export interface LastChange {
  cause: string;
  by: string | null;
}

function nameOf(view: MemberRoomView, userId: string): string {
  return view.members?.find((member) => member.userId === userId)?.name ?? 'someone';
}

function list(names: string[]): string {
  if (names.length <= 1) return names[0] ?? 'someone';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function statusText(view: MemberRoomView, connection: ConnectionStatus, last: LastChange | null): string {
  if (connection.state === 'offline') return 'Offline: waiting for the network';
  if (connection.state === 'reconnecting' || connection.state === 'connecting') return 'Reconnecting…';
  if (connection.state === 'ended') return 'Disconnected from the room';
  const playback = view.playback;
  if (playback.mediaId === null) return 'Nothing is playing';
  const waiting = playback.waitingForReady;
  if (waiting && waiting.userIds.length > 0) return `Waiting for ${list(waiting.userIds.map((id) => nameOf(view, id)))} to load…`;
  if (playback.playing) return 'Playing';
  if (last?.by && (last.cause === 'playback.pause' || last.cause === 'buffering')) {
    return last.cause === 'buffering' ? `Paused while ${nameOf(view, last.by)} loads` : `Paused by ${nameOf(view, last.by)}`;
  }
  return 'Paused';
}

/** 83 -> "1:23", 3723 -> "1:02:03". */
export function clockText(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
