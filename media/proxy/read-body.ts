/**
 * Reads a small upstream body (an HLS playlist, a provider's JSON answer) into memory, up to a
 * limit: a hostile or broken upstream cannot make the service buffer a movie.
 */
import { AppError } from '../../errors/index.js';
import type { UpstreamReply } from '../cache/types.js';

export async function readLimited(reply: UpstreamReply, limitBytes: number, what: string): Promise<Buffer> {
  const declared = Number(reply.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    reply.body.destroy();
    throw new AppError('bad_gateway', `the upstream ${what} is ${declared} bytes, more than the ${limitBytes} allowed`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of reply.body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buffer.length;
    if (size > limitBytes) {
      reply.body.destroy();
      throw new AppError('bad_gateway', `the upstream ${what} is more than the ${limitBytes} bytes allowed`);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
