/**
 * A TURN Allocate (RFC 5766 6.1 with RFC 5389 long-term credentials) built with the `stun`
 * package: the first request is challenged (401 with REALM and NONCE), the second carries
 * USERNAME, REALM, NONCE and MESSAGE-INTEGRITY keyed by MD5(username:realm:password). It tells
 * whether a TURN server accepts a credential without a browser in the loop.
 */
import { createHash } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { stun, type StunMessage } from './stun-client.js';

const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ATTR = { USERNAME: 0x0006, REALM: 0x0014, NONCE: 0x0015, XOR_RELAYED_ADDRESS: 0x0016, REQUESTED_TRANSPORT: 0x0019, ERROR_CODE: 0x0009 };
/** UDP (17) in the top byte, RFC 5766 14.7. */
const UDP_TRANSPORT = 17 << 24;

export type AllocateOutcome = { ok: true; relayed: { address: string; port: number } } | { ok: false; code: number; reason: string };

interface Attribute {
  value: unknown;
}
type Message = StunMessage & { getAttribute(type: number): Attribute | undefined };

export async function allocate(host: string, port: number, username: string, password: string): Promise<AllocateOutcome> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  try {
    const first = stun.createMessage(ALLOCATE_REQUEST);
    first.addAttribute(ATTR.REQUESTED_TRANSPORT, UDP_TRANSPORT);
    const challenge = (await exchange(socket, host, port, first)) as Message;
    const realm = text(challenge.getAttribute(ATTR.REALM));
    const nonce = text(challenge.getAttribute(ATTR.NONCE));
    if (!realm || !nonce) return outcomeOf(challenge);

    const second = stun.createMessage(ALLOCATE_REQUEST) as StunMessage & { addMessageIntegrity(key: Buffer): boolean };
    second.addAttribute(ATTR.REQUESTED_TRANSPORT, UDP_TRANSPORT);
    second.addAttribute(ATTR.USERNAME, username);
    second.addAttribute(ATTR.REALM, realm);
    second.addAttribute(ATTR.NONCE, nonce);
    second.addMessageIntegrity(createHash('md5').update(`${username}:${realm}:${password}`).digest());
    second.addFingerprint();
    return outcomeOf((await exchange(socket, host, port, second)) as Message);
  } finally {
    socket.close();
  }
}

function outcomeOf(response: Message): AllocateOutcome {
  if (response.type === ALLOCATE_SUCCESS) {
    const relayed = response.getAttribute(ATTR.XOR_RELAYED_ADDRESS)?.value as { address: string; port: number };
    return { ok: true, relayed: { address: relayed.address, port: relayed.port } };
  }
  const error = response.getAttribute(ATTR.ERROR_CODE)?.value as { code: number; reason: string } | undefined;
  return { ok: false, code: error?.code ?? 0, reason: error?.reason ?? 'no ERROR-CODE' };
}

function text(attribute: Attribute | undefined): string | undefined {
  const value = attribute?.value;
  return Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : undefined;
}

/** Sends `message` and waits (retransmitting, RFC 5389 7.2.1) for the response with its transaction id. */
function exchange(socket: Socket, host: string, port: number, message: StunMessage): Promise<StunMessage> {
  const packet = stun.encode(message);
  return new Promise((resolve, reject) => {
    let attempts = 0;
    const send = (): void => {
      attempts += 1;
      if (attempts > 6) {
        finish();
        reject(new Error(`no answer from TURN ${host}:${port}`));
        return;
      }
      socket.send(packet, port, host);
    };
    const timer = setInterval(send, 500);
    const onMessage = (data: Buffer): void => {
      let response: StunMessage;
      try {
        response = stun.decode(data);
      } catch {
        return;
      }
      if (!response.transactionId.equals(message.transactionId)) return;
      finish();
      resolve(response);
    };
    const finish = (): void => {
      clearInterval(timer);
      socket.off('message', onMessage);
    };
    socket.on('message', onMessage);
    send();
  });
}
