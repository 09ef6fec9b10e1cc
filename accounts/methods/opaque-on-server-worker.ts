/**
 * The worker thread of opaque-on-server.ts: both sides of OPAQUE for a password the server
 * holds. The client side stretches the password with Argon2id (64 MiB, 3 passes: about 250 ms
 * of one core here), synchronously in WebAssembly, which is why it runs here and not on the
 * event loop that times the rooms' playback.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as opaque from '@serenity-kit/opaque';
import type { OpaqueJob, OpaqueJobResult, OpaqueWorkerData } from './opaque-jobs.js';

const { serverSetup } = workerData as OpaqueWorkerData;

function run(job: OpaqueJob): OpaqueJobResult {
  const { password, userIdentifier } = job;
  if (job.kind === 'register') {
    const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password });
    const { registrationResponse } = opaque.server.createRegistrationResponse({ serverSetup, userIdentifier, registrationRequest });
    return { record: opaque.client.finishRegistration({ clientRegistrationState, registrationResponse, password }).registrationRecord };
  }
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password });
  // A null record is the library's fake-record path: the same work, and never a match.
  const { serverLoginState, loginResponse } = opaque.server.startLogin({ serverSetup, userIdentifier, registrationRecord: job.record, startLoginRequest });
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse, password });
  if (!finished) return { ok: false };
  opaque.server.finishLogin({ serverLoginState, finishLoginRequest: finished.finishLoginRequest });
  return { ok: job.record !== null };
}

await opaque.ready;
parentPort!.on('message', ({ id, job }: { id: number; job: OpaqueJob }) => {
  try {
    parentPort!.postMessage({ id, result: run(job) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
