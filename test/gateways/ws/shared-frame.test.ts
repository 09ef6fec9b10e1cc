/**
 * An event's frame is built once per gateway and its bytes written to every socket
 * (gateways/ws/shared-frame.ts): a standard WebSocket client reads each as the text message it
 * carries, at every length encoding of RFC 6455, in order with what `ws` itself sends.
 */
import test from 'ava';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';
import { withDeadline } from '../../fixtures/deadline.js';
import { sendShared, sharedTextFrame } from '../../../gateways/ws/shared-frame.js';

test('shared frames reach a ws client as their text, at every length encoding, in order with ws sends', async (t) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  t.teardown(() => server.close());
  await once(server, 'listening');
  // 7-bit, 16-bit and 64-bit lengths, each at its edges.
  const lengths = [0, 1, 125, 126, 127, 65_535, 65_536, 200_000];
  // In bytes: and one of two-byte characters, whose length in bytes is twice its string length.
  const payloads = [...lengths.map((length) => 'x'.repeat(length)), 'é'.repeat(63)];
  t.deepEqual(payloads.map((payload) => Buffer.byteLength(payload)), [...lengths, 126]);
  server.on('connection', (ws) => {
    for (const [i, payload] of payloads.entries()) {
      sendShared(ws, sharedTextFrame(Buffer.from(payload, 'utf8')));
      ws.send(`between ${i}`);
    }
  });
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  t.teardown(() => client.terminate());
  const received: Array<{ text: string; binary: boolean }> = [];
  const all = new Promise<void>((resolve, reject) => {
    client.on('error', reject);
    client.on('message', (data, isBinary) => {
      received.push({ text: (data as Buffer).toString('utf8'), binary: isBinary });
      if (received.length === payloads.length * 2) resolve();
    });
  });
  await withDeadline(all, 10_000, 'every message');
  const expected = payloads.flatMap((payload, i) => [
    { text: payload, binary: false },
    { text: `between ${i}`, binary: false },
  ]);
  t.deepEqual(
    received.map((message) => ({ length: message.text.length, binary: message.binary })),
    expected.map((message) => ({ length: message.text.length, binary: message.binary })),
  );
  t.true(received.every((message, i) => message.text === expected[i]!.text));
});
