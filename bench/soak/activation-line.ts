/**
 * The actor hosts' `activation started` / `activation ended` log lines (actors/runtime/activation.ts),
 * as the soak collects them from each host's output for the overlap audit.
 */
export interface ActivationLine {
  kind: 'started' | 'ended';
  type: string;
  id: string;
  fence: number;
  at: number;
  lastTurnAt: number | undefined;
  reason: string | undefined;
  replicaId: string;
}

/** The activation line in one line of a host's output (pino JSON), or undefined when it is none. */
export function parseActivationLine(line: string, replicaId: string): ActivationLine | undefined {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (parsed.msg !== 'activation started' && parsed.msg !== 'activation ended') return undefined;
  return {
    kind: parsed.msg === 'activation started' ? 'started' : 'ended',
    type: String(parsed.type),
    id: String(parsed.id),
    fence: Number(parsed.fence),
    at: Number(parsed.at),
    lastTurnAt: typeof parsed.lastTurnAt === 'number' ? parsed.lastTurnAt : undefined,
    reason: typeof parsed.reason === 'string' ? parsed.reason : undefined,
    replicaId,
  };
}
