/**
 * Where a publisher points OBS (or ffmpeg): `rtmp://<host>[:<port>]/live/<streamKey>`, shown
 * whole and split the way OBS asks for it (Server, Stream Key).
 *
 * The host is `rtmp.customPublishHost` when an operator set it (host[:port]; the RTMP port is
 * often forwarded or load-balanced under another name than the web address), else the host
 * of `server.public_url`, else the host the request came in on; the port is the one in
 * customPublishHost, else `rtmp.port` (left out when it is RTMP's default 1935).
 */
export const RTMP_APP = 'live';
const RTMP_DEFAULT_PORT = 1935;

export interface PublishUrls {
  /** The whole publish URL, key included. */
  url: string;
  /** OBS "Server": the URL without the key. */
  server: string;
  /** OBS "Stream Key". */
  streamKey: string;
}

export interface PublishHostSources {
  customPublishHost: string;
  publicUrl: string;
  /** The Host of the request (host[:port]), as the browser reached this service. */
  requestHost: string;
  rtmpPort: number;
}

function hostnameOf(hostPort: string): string {
  try {
    return new URL(`http://${hostPort}`).hostname;
  } catch {
    return hostPort;
  }
}

function hostPortOf(sources: PublishHostSources): string {
  const custom = sources.customPublishHost.trim();
  if (custom !== '') {
    const url = new URL(`rtmp://${custom}`);
    return url.port !== '' ? `${url.hostname}:${url.port}` : withPort(url.hostname, sources.rtmpPort);
  }
  let host = '';
  if (sources.publicUrl !== '') {
    try {
      host = new URL(sources.publicUrl).hostname;
    } catch {
      host = '';
    }
  }
  if (host === '') host = hostnameOf(sources.requestHost) || 'localhost';
  return withPort(host, sources.rtmpPort);
}

function withPort(hostname: string, port: number): string {
  return port === RTMP_DEFAULT_PORT ? hostname : `${hostname}:${port}`;
}

export function publishUrls(sources: PublishHostSources, streamKey: string): PublishUrls {
  const server = `rtmp://${hostPortOf(sources)}/${RTMP_APP}`;
  return { url: `${server}/${streamKey}`, server, streamKey };
}
