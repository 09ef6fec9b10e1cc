/**
 * A participant of a LiveKit call without media: it opens LiveKit's signalling socket with a
 * token, which is what a browser does first, and LiveKit counts it in the room from then on (it
 * stays while the socket is open). Enough for the server-level tests to see a token accepted,
 * the grants LiveKit holds, and a participant removed; the browser tests carry real media.
 */
import WebSocket from 'ws';

export interface SignalPeer {
  /** Resolves with the close code when LiveKit (or close()) ends the socket. */
  closed: Promise<number>;
  close(): void;
}

/** Joins `publicUrl`'s call with `token`; rejects with LiveKit's HTTP status when it refuses the token. */
export function joinSignalling(publicUrl: string, token: string): Promise<SignalPeer> {
  const url = `${publicUrl.replace(/\/$/, '')}/rtc?access_token=${encodeURIComponent(token)}&protocol=15&sdk=js&version=2.9.0&auto_subscribe=1`;
  const ws = new WebSocket(url);
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.once('unexpected-response', (_req, res) => reject(new Error(`LiveKit refused the token: HTTP ${res.statusCode ?? '?'}`)));
    ws.once('error', reject);
    // LiveKit's first message is its join answer: the participant is in the room.
    ws.once('message', () => resolve({ closed, close: () => ws.close() }));
  });
}
