/**
 * MediaMTX, a real RTSP server, on a free loopback port with a throwaway configuration: ffmpeg
 * publishes a camera stand-in to it (RTSP ANNOUNCE/RECORD) and the service pulls from it as a
 * player would from a camera. infra/install.sh builds it and npm test names it in
 * SVCTEST_MEDIAMTX; RTSP only (its RTMP, HLS, WebRTC, SRT and API servers are off).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../fixtures/deadline.js';
import { freePort } from '../harness/stack.js';

export interface RtspServer {
  /** rtsp://127.0.0.1:<port> */
  url: string;
  port: number;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startMediaMtx(): Promise<RtspServer> {
  const binary = process.env.SVCTEST_MEDIAMTX;
  if (!binary || !existsSync(binary)) throw new Error(`MediaMTX not found at SVCTEST_MEDIAMTX=${binary ?? ''}: run the tests with npm test (infra/install.sh builds it)`);
  const dir = await mkdtemp(join(tmpdir(), 'svc-mediamtx-'));
  const port = await freePort();
  const config = [
    'logLevel: warn',
    'rtsp: yes',
    `rtspAddress: 127.0.0.1:${port}`,
    'rtspTransports: [tcp]',
    'rtmp: no',
    'hls: no',
    'webrtc: no',
    'srt: no',
    'api: no',
    'metrics: no',
    'pprof: no',
    'playback: no',
    'paths:',
    '  all_others:',
    '',
  ].join('\n');
  await writeFile(join(dir, 'mediamtx.yml'), config);
  const child = spawn(binary, [join(dir, 'mediamtx.yml')], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await waitFor(`MediaMTX to listen on ${port} (${stderr})`, async () => {
    if (child.exitCode !== null) throw new Error(`MediaMTX exited: ${stderr}`);
    return (await accepts(port)) || undefined;
  }, 15_000);
  return {
    url: `rtsp://127.0.0.1:${port}`,
    port,
    async stop() {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
