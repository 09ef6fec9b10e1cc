// The image's HEALTHCHECK: healthy while this process's /health/ready answers 200. Every role
// serves it on the metrics listener (SVC_METRICS_LISTEN, host:port); a gateway without one is
// asked on its HTTP port instead.
const listen = process.env.SVC_METRICS_LISTEN ?? '';
const port = listen ? listen.slice(listen.lastIndexOf(':') + 1) : (process.env.SVC_SERVER_PORT ?? '8080');
try {
  const response = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(3000) });
  if (!response.ok) console.error(`/health/ready answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(`/health/ready on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
