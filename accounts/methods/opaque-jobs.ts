/** What opaque-on-server.ts and its worker thread (opaque-on-server-worker.ts) send each other. */
export type OpaqueJob =
  | { kind: 'register'; password: string; userIdentifier: string }
  | { kind: 'verify'; password: string; userIdentifier: string; record: string | null };

export type OpaqueJobResult = { record: string } | { ok: boolean };

/** What the worker is started with. */
export interface OpaqueWorkerData {
  serverSetup: string;
}
