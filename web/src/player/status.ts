/** The player's status line: what the room is doing and why, in words. */
import type { ConnectionStatus } from '../realtime/connection.js';
import type { MemberRoomView } from '../state/room-view.js';
import { t } from '../i18n/i18n.js';

export interface LastChange {
  cause: string;
  by: string | null;
}

function nameOf(view: MemberRoomView, userId: string): string {
  return view.members?.find((member) => member.userId === userId)?.name ?? t('player.status.someone');
}

function list(names: string[]): string {
  if (names.length <= 1) return names[0] ?? t('player.status.someone');
  return t('player.status.and', { rest: names.slice(0, -1).join(t('player.status.separator')), last: names[names.length - 1] });
}

export function statusText(view: MemberRoomView, connection: ConnectionStatus, last: LastChange | null): string {
  if (connection.state === 'offline') return t('player.status.offline');
  if (connection.state === 'reconnecting' || connection.state === 'connecting') return t('player.status.reconnecting');
  if (connection.state === 'ended') return t('player.status.disconnected');
  const playback = view.playback;
  if (playback.mediaId === null) return t('player.status.nothing');
  const waiting = playback.waitingForReady;
  if (waiting && waiting.userIds.length > 0) return t('player.status.waitingFor', { names: list(waiting.userIds.map((id) => nameOf(view, id))) });
  if (playback.playing) return t('player.status.playing');
  if (last?.by && (last.cause === 'playback.pause' || last.cause === 'buffering')) {
    return t(last.cause === 'buffering' ? 'player.status.pausedWhileLoading' : 'player.status.pausedBy', { name: nameOf(view, last.by) });
  }
  return t('player.status.paused');
}

/** 83 -> "1:23", 3723 -> "1:02:03". */
export function clockText(seconds: number): string {
  const total = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
