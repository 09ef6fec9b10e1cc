/**
 * A loopback HTTP server of files with Range support, standing in for the media proxy: the
 * transcoder's real input is an HTTP URL, and ffmpeg's seeks are Range requests.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';

export interface RangeServer {
  /** The URL of `path` (served by its base name). */
  url(path: string): string;
  /** Requests answered so far. */
  requests: number;
  close(): Promise<void>;
}

/** A body sent at about `bytesPerSecond`, in chunks: a slow upstream that keeps an encoder busy for a while. */
async function paced(res: ServerResponse, path: string, start: number, end: number, bytesPerSecond: number): Promise<void> {
  const chunk = 16 * 1024;
  const file = await open(path);
  try {
    for (let at = start; at <= end && !res.destroyed; at += chunk) {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(Math.min(chunk, end - at + 1)), 0, Math.min(chunk, end - at + 1), at);
      if (!res.write(buffer.subarray(0, bytesRead))) await new Promise((resolve) => res.once('drain', resolve));
      await new Promise((resolve) => setTimeout(resolve, (chunk / bytesPerSecond) * 1000));
    }
  } finally {
    await file.close();
    res.end();
  }
}

/** Serves `paths` by base name; `bytesPerSecond` paces the bodies (default: as fast as they go). */
export async function serveFiles(paths: string[], bytesPerSecond?: number): Promise<RangeServer> {
  const files = new Map(paths.map((path) => [basename(path), path]));
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests += 1;
    const path = files.get(decodeURIComponent((req.url ?? '/').slice(1)));
    if (!path) {
      res.writeHead(404).end();
      return;
    }
    void stat(path).then(({ size }) => {
      const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
      if (!range) {
        res.writeHead(200, { 'content-length': size, 'accept-ranges': 'bytes', 'content-type': 'video/x-matroska' });
        if (bytesPerSecond) void paced(res, path, 0, size - 1, bytesPerSecond).catch(() => res.destroy());
        else createReadStream(path).pipe(res);
        return;
      }
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1, 'accept-ranges': 'bytes', 'content-type': 'video/x-matroska' });
      if (bytesPerSecond) void paced(res, path, start, end, bytesPerSecond).catch(() => res.destroy());
      else createReadStream(path, { start, end }).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}/${encodeURIComponent(basename(path))}`,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
