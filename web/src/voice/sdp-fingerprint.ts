/**
 * The `a=fingerprint` of an SDP: every media section of one connection shares its DTLS
 * certificate, so the first such line names the connection (peer.ts tells a new connection from
 * a renegotiation by it). The SDP is another member's text, up to 64 KiB: the line is read and
 * trimmed without backtracking (`(.+?)\s*$` took seconds on a line of spaces).
 */
export function fingerprintOf(sdp: string | undefined): string | undefined {
  const value = sdp?.match(/^a=fingerprint:([^\r\n]*)/m)?.[1]?.trim();
  return value ? value : undefined;
}
