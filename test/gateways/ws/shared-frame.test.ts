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

test('the frames written to one socket in one turn go to the kernel in one write, still in order with ws sends', async (t) => {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
  t.teardown(() => server.close());
  await once(server, 'listening');
  const writes: number[] = [];
  server.on('connection', (ws) => {
    // What the socket hands the kernel: one _writev per uncork with everything queued, or one _write for a lone chunk.
    const socket = (ws as unknown as { _socket: { _writev: (...args: unknown[]) => void; _write: (...args: unknown[]) => void } })._socket;
    const writev = socket._writev.bind(socket);
    const write = socket._write.bind(socket);
    socket._writev = (chunks: unknown, callback: unknown) => {
      writes.push((chunks as unknown[]).length);
      writev(chunks, callback);
    };
    socket._write = (chunk: unknown, encoding: unknown, callback: unknown) => {
      writes.push(1);
      write(chunk, encoding, callback);
    };
    // A burst read from NATS in one go: five events, with a message of ws's own among them.
    for (let i = 0; i < 5; i++) {
      sendShared(ws, sharedTextFrame(Buffer.from(`event ${i}`)));
      if (i === 2) ws.send('between');
    }
    // The next turn's event is written on its own.
    setImmediate(() => sendShared(ws, sharedTextFrame(Buffer.from('later'))));
  });
  const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
  t.teardown(() => client.terminate());
  const received: string[] = [];
  await withDeadline(
    new Promise<void>((resolve, reject) => {
      client.on('error', reject);
      client.on('message', (data) => {
        received.push((data as Buffer).toString('utf8'));
        if (received.length === 7) resolve();
      });
    }),
    10_000,
    'every message',
  );
  t.deepEqual(received, ['event 0', 'event 1', 'event 2', 'between', 'event 3', 'event 4', 'later']);
  // ws writes its own message as two chunks (header, payload): 5 + 2 in the burst's one write.
  t.deepEqual(writes, [7, 1], 'the burst, with ws’s message in its place, in one write; the later event in another');
});
