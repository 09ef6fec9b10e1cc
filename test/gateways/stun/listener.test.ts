/**
 * The built-in STUN listener (gateways/stun/) checked with the `stun` npm package: a Binding
 * request gets the requester's own address and port in XOR-MAPPED-ADDRESS with a valid
 * FINGERPRINT, over IPv4 and IPv6; malformed datagrams get no answer and do not stop it.
 */
import { createSocket, type Socket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { startStunListener, type StunListener } from '../../../gateways/stun/listener.js';
import { createLogger } from '../../../observability/logger.js';
import { stun } from './stun-client.js';

const logger = createLogger({ level: 'fatal', destination: 'stderr' });
let v4: StunListener;
let v6: StunListener | undefined;

test.before(async () => {
  v4 = await startStunListener('127.0.0.1', 0, logger);
  // IPv6 loopback is missing in some containers; the IPv6 case is skipped there, not failed.
  v6 = await startStunListener('::1', 0, logger).catch(() => undefined);
});
test.after.always(async () => {
  await v4?.close();
  await v6?.close();
});

async function boundSocket(type: 'udp4' | 'udp6', host: string): Promise<Socket> {
  const socket = createSocket(type);
  await new Promise<void>((resolve) => socket.bind(0, host, resolve));
  return socket;
}

/** The next datagram on `socket`, or an error after `timeoutMs`. */
function nextDatagram(socket: Socket, timeoutMs = 5_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('message', onMessage);
      reject(new Error(`no datagram within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (packet: Buffer): void => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      resolve(packet);
    };
    socket.on('message', onMessage);
  });
}

function bindingRequest(fingerprint = true): { packet: Buffer; transactionId: Buffer } {
  const message = stun.createMessage(stun.constants.STUN_BINDING_REQUEST ?? 0x0001);
  if (fingerprint) message.addFingerprint();
  return { packet: stun.encode(message), transactionId: message.transactionId };
}

test('a Binding request from the stun package gets its own address and port back, with a valid FINGERPRINT', async (t) => {
  const socket = await boundSocket('udp4', '127.0.0.1');
  try {
    const response = await stun.request(`127.0.0.1:${v4.address.port}`, { socket, retries: 2 });
    t.is(response.type, stun.constants.STUN_BINDING_RESPONSE ?? 0x0101);
    t.deepEqual(response.getXorAddress(), { address: '127.0.0.1', port: socket.address().port, family: 'IPv4' });
    t.true(stun.validateFingerprint(response));
  } finally {
    socket.close();
  }
});

test('over IPv6, XOR-MAPPED-ADDRESS carries the IPv6 address (XORed with the cookie and the transaction id)', async (t) => {
  if (!v6) {
    t.log('no IPv6 loopback here; skipped');
    t.pass();
    return;
  }
  const socket = await boundSocket('udp6', '::1');
  try {
    const { packet, transactionId } = bindingRequest();
    const answer = nextDatagram(socket);
    socket.send(packet, v6.address.port, '::1');
    const response = stun.decode(await answer);
    t.deepEqual(response.transactionId, transactionId);
    t.deepEqual(response.getXorAddress(), { address: '::1', port: socket.address().port, family: 'IPv6' });
    t.true(stun.validateFingerprint(response));
  } finally {
    socket.close();
  }
});

test('malformed datagrams get no answer, and the listener still answers the next valid request', async (t) => {
  const socket = await boundSocket('udp4', '127.0.0.1');
  const send = (packet: Buffer): void => socket.send(packet, v4.address.port, '127.0.0.1');
  const valid = bindingRequest().packet;
  const wrongCookie = Buffer.from(valid);
  wrongCookie.writeUInt32BE(0xdeadbeef, 4);
  const notBinding = Buffer.from(valid);
  notBinding.writeUInt16BE(0x0003, 0); // an Allocate request: TURN, not ours
  const badLength = Buffer.from(valid);
  badLength.writeUInt16BE(badLength.readUInt16BE(2) + 4, 2);
  const badFingerprint = Buffer.from(valid);
  badFingerprint[badFingerprint.length - 1]! ^= 0xff;
  const response = Buffer.from(valid);
  response.writeUInt16BE(0x0101, 0); // a success response is not a request
  const junk = [randomBytes(64), valid.subarray(0, 12), wrongCookie, notBinding, badLength, badFingerprint, response, Buffer.alloc(0)];
  try {
    // Datagrams on loopback arrive in order and the listener handles them in order: if any of
    // the junk were answered, that answer would come before the one to the valid request.
    const first = nextDatagram(socket);
    for (const packet of junk) send(packet);
    const { packet, transactionId } = bindingRequest(false);
    send(packet);
    const answer = stun.decode(await first);
    t.deepEqual(answer.transactionId, transactionId, 'the first answer is the one to the valid request');
    t.true(stun.validateFingerprint(answer));
  } finally {
    socket.close();
  }
});
