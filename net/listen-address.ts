/** A host:port as startup keys give it (listeners, the Temporal address): `127.0.0.1:9464`, `[::1]:9464`, `0.0.0.0:9464`. */
export function parseListenAddress(text: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:[\]/\s]+):(\d+)$/.exec(text);
  const port = match ? Number(match[2]) : 0;
  if (!match || port < 1 || port > 65535) return undefined;
  return { host: match[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}
