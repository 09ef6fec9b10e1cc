/**
 * The little of RFC 5389 (STUN) the built-in listener speaks: it recognises a Binding request
 * and builds the Binding success response carrying the requester's reflexive address
 * (XOR-MAPPED-ADDRESS) and a FINGERPRINT. Anything else is `undefined`: the listener drops it
 * without answering (RFC 5389 7.3: a malformed message is silently discarded).
 */
import { crc32 } from 'node:zlib';
import { isIPv4, isIPv6 } from 'node:net';

export const MAGIC_COOKIE = 0x2112a442;
const HEADER_BYTES = 20;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const ATTR_XOR_MAPPED_ADDRESS = 0x0020;
const ATTR_FINGERPRINT = 0x8028;
/** RFC 5389 15.5: the CRC-32 is XORed with this ("STUN") so STUN stands apart from other CRC'd protocols. */
const FINGERPRINT_XOR = 0x5354554e;
/** Nothing a Binding request carries needs more; a bigger datagram is not one we answer. */
export const MAX_REQUEST_BYTES = 1024;

export interface BindingRequest {
  /** The 12-byte transaction id, echoed in the response. */
  transactionId: Buffer;
}

/** The Binding request in `packet`, or undefined for anything the listener must ignore. */
export function parseBindingRequest(packet: Buffer): BindingRequest | undefined {
  if (packet.length < HEADER_BYTES || packet.length > MAX_REQUEST_BYTES) return undefined;
  const type = packet.readUInt16BE(0);
  // The two top bits of every STUN message are zero; the type must be a Binding request.
  if (type !== BINDING_REQUEST) return undefined;
  const length = packet.readUInt16BE(2);
  if (length % 4 !== 0 || HEADER_BYTES + length !== packet.length) return undefined;
  if (packet.readUInt32BE(4) !== MAGIC_COOKIE) return undefined;
  if (!attributesWellFormed(packet)) return undefined;
  return { transactionId: Buffer.from(packet.subarray(8, HEADER_BYTES)) };
}

/**
 * Walks the attributes: each must fit, and a FINGERPRINT, when present, must be the last one
 * and match (RFC 5389 15.5). Attributes we do not know are allowed (comprehension-required ones
 * would earn a 420 error, which a Binding request from a browser never needs).
 */
function attributesWellFormed(packet: Buffer): boolean {
  let offset = HEADER_BYTES;
  while (offset < packet.length) {
    if (offset + 4 > packet.length) return false;
    const type = packet.readUInt16BE(offset);
    const length = packet.readUInt16BE(offset + 2);
    const end = offset + 4 + length;
    if (end > packet.length) return false;
    if (type === ATTR_FINGERPRINT) {
      if (length !== 4 || end !== packet.length) return false;
      return packet.readUInt32BE(offset + 4) === fingerprintOf(packet.subarray(0, offset));
    }
    offset = end + ((4 - (length % 4)) % 4);
  }
  return offset === packet.length;
}

/** CRC-32 of the message up to the FINGERPRINT attribute, XOR 0x5354554e. */
export function fingerprintOf(bytes: Buffer): number {
  return (crc32(bytes) ^ FINGERPRINT_XOR) >>> 0;
}

/** The Binding success response telling the requester its address as seen from here. */
export function bindingSuccess(request: BindingRequest, address: string, port: number): Buffer {
  const xorAddress = xorMappedAddress(request.transactionId, address, port);
  // Header, XOR-MAPPED-ADDRESS (4 + value), FINGERPRINT (4 + 4).
  const out = Buffer.alloc(HEADER_BYTES + 4 + xorAddress.length + 8);
  out.writeUInt16BE(BINDING_SUCCESS, 0);
  out.writeUInt16BE(out.length - HEADER_BYTES, 2);
  out.writeUInt32BE(MAGIC_COOKIE, 4);
  request.transactionId.copy(out, 8);
  let offset = HEADER_BYTES;
  out.writeUInt16BE(ATTR_XOR_MAPPED_ADDRESS, offset);
  out.writeUInt16BE(xorAddress.length, offset + 2);
  xorAddress.copy(out, offset + 4);
  offset += 4 + xorAddress.length;
  out.writeUInt16BE(ATTR_FINGERPRINT, offset);
  out.writeUInt16BE(4, offset + 2);
  // The length field already counts the FINGERPRINT, as RFC 5389 15.5 requires.
  out.writeUInt32BE(fingerprintOf(out.subarray(0, offset)), offset + 4);
  return out;
}

/** RFC 5389 15.2: the port XOR the cookie's top half; the address XOR the cookie (and, for IPv6, the transaction id). */
function xorMappedAddress(transactionId: Buffer, address: string, port: number): Buffer {
  const mapped = v4MappedToV4(address);
  const ipv6 = !isIPv4(mapped);
  if (ipv6 && !isIPv6(mapped)) throw new Error(`not an IP address: ${address}`);
  const value = Buffer.alloc(ipv6 ? 20 : 8);
  value.writeUInt8(0, 0);
  value.writeUInt8(ipv6 ? 0x02 : 0x01, 1);
  value.writeUInt16BE(port ^ (MAGIC_COOKIE >>> 16), 2);
  const raw = ipv6 ? ipv6Bytes(mapped) : Buffer.from(mapped.split('.').map(Number));
  const key = Buffer.alloc(16);
  key.writeUInt32BE(MAGIC_COOKIE, 0);
  transactionId.copy(key, 4);
  for (let i = 0; i < raw.length; i += 1) value[4 + i] = raw[i]! ^ key[i]!;
  return value;
}

/** A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d; they are IPv4 to the client. */
function v4MappedToV4(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}

function ipv6Bytes(address: string): Buffer {
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  const [head = '', tail = ''] = bare.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = bare.includes('::') ? parse(tail) : [];
  const groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const out = Buffer.alloc(16);
  groups.forEach((group, i) => out.writeUInt16BE(group, i * 2));
  return out;
}
