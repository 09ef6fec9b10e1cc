import type pg from 'pg';
import { chatWriter, type ChatWriter } from './chat/chat-writer.js';
import { playbackWriter, type PlaybackWriter } from './playback/playback-writer.js';

/** The host's group-committed writers, shared by all its rooms (one set per actor type instance). */
export interface RoomWriters {
  chat: ChatWriter;
  playback: PlaybackWriter;
}

export function roomWriters(pool: pg.Pool): RoomWriters {
  return { chat: chatWriter(pool), playback: playbackWriter(pool) };
}
