/**
 * Runtime settings are not startup secrets, but a few of their fields are credentials
 * (OAuth2 client secrets, TURN credentials). Listings hide them unless asked.
 */
const REDACTED = '[redacted]';

export function redactSettingValue(key: string, value: unknown): unknown {
  if (key === 'oauth2.providers' && Array.isArray(value)) {
    return value.map((provider: Record<string, unknown>) => {
      const copy: Record<string, unknown> = { ...provider };
      for (const variant of ['github', 'oidc']) {
        const inner = copy[variant] as Record<string, unknown> | undefined;
        if (inner && typeof inner === 'object' && inner.clientSecret) copy[variant] = { ...inner, clientSecret: REDACTED };
      }
      return copy;
    });
  }
  if (key === 'webrtc.externalIceServers' && Array.isArray(value)) {
    return value.map((server: Record<string, unknown>) =>
      server && typeof server === 'object' && server.credential ? { ...server, credential: REDACTED } : server,
    );
  }
  return value;
}
