/**
 * The built-in STUN listener (startup `stun.*`): one UDP socket answering Binding requests so
 * browsers can learn their server-reflexive address without a third-party STUN server. It
 * keeps no state per client; anything that is not a well-formed Binding request is dropped.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { isIPv6 } from 'node:net';
import type { Logger } from '../../observability/index.js';
import { bindingSuccess, parseBindingRequest } from './message.js';

export interface StunListener {
  /** The bound address and port (the port is the real one when 0 was asked for). */
  address: { address: string; port: number };
  close(): Promise<void>;
}

export async function startStunListener(host: string, port: number, logger: Logger): Promise<StunListener> {
  const socket: Socket = createSocket({ type: isIPv6(host) ? 'udp6' : 'udp4', reuseAddr: false });
  let dropped = 0;
  socket.on('message', (packet: Buffer, peer: RemoteInfo) => {
    const request = parseBindingRequest(packet);
    if (!request) {
      dropped += 1;
      // Counted, logged sparsely: a flood of junk must not become a flood of log lines.
      if ((dropped & (dropped - 1)) === 0) logger.debug({ dropped, from: peer.address }, 'ignored a datagram that is not a STUN Binding request');
      return;
    }
    socket.send(bindingSuccess(request, peer.address, peer.port), peer.port, peer.address, (err) => {
      if (err) logger.debug({ err, to: peer.address }, 'could not answer a STUN Binding request');
    });
  });
  // An ICMP error for an earlier answer must not take the listener down.
  socket.on('error', (err) => logger.warn({ err }, 'STUN listener socket error'));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  const bound = socket.address();
  logger.info({ address: bound.address, port: bound.port }, 'STUN listener started');
  return {
    address: { address: bound.address, port: bound.port },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
