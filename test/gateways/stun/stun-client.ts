/**
 * The `stun` npm package (a STUN implementation the project did not write) as the tests use
 * it; it ships no types, so the little we call is typed here.
 */
import { createRequire } from 'node:module';

export interface StunAddress {
  address: string;
  port: number;
  family: string;
}

export interface StunMessage {
  type: number;
  transactionId: Buffer;
  getXorAddress(): StunAddress | undefined;
  addFingerprint(): void;
  addAttribute(type: number, ...args: unknown[]): void;
}

export interface StunModule {
  constants: Record<string, number>;
  request(url: string, options?: Record<string, unknown>): Promise<StunMessage>;
  createMessage(type: number, transactionId?: Buffer): StunMessage;
  encode(message: StunMessage): Buffer;
  decode(packet: Buffer): StunMessage;
  validateFingerprint(message: StunMessage): boolean;
}

export const stun = createRequire(import.meta.url)('stun') as StunModule;
