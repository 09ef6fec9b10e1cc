/**
 * An admin deciding the rooms pending review over HTTP while the soak runs, one after another
 * spread over the run (so some are always pending, the Temporal restart included): even ones
 * approved, odd ones rejected. A decision whose answer is lost (Temporal or a gateway down) is
 * sent again until accepted or refused; `conflict` after our own earlier attempt means that
 * attempt was recorded. At the end each review's workflow and its room in PostgreSQL must both
 * show the decision that was accepted, once.
 */
import { call } from './http.js';
import type { Gateway } from './socket-person.js';
import type { SoakWorld } from './setup.js';
import { sql } from './setup.js';

export interface Decision {
  roomId: string;
  want: 'approved' | 'rejected';
  /** Answers with 200 (a decision recorded by this call). */
  accepted: number;
  /** Conflict answers after an attempt of ours whose answer was lost. */
  conflictsAfterLoss: number;
  attempts: number;
  decidedAt: number | undefined;
  lastError: string | undefined;
}

export interface ReviewOutcome {
  pendingAtStart: number;
  decided: number;
  /** A decision was accepted, yet at the end the workflow or the room does not show it. */
  lost: Array<{ roomId: string; want: string; workflow: string; room: string }>;
  /** Accepted twice, or the end state is the other decision. */
  twice: Array<{ roomId: string; detail: string }>;
  /** Never accepted by the end of the run (still being retried). */
  undecided: number;
}

export class Reviewer {
  readonly decisions: Decision[] = [];
  private readonly loops: Array<Promise<void>> = [];
  private stopped = false;

  constructor(
    private readonly world: SoakWorld,
    private readonly gateways: readonly Gateway[],
  ) {}

  /** Decides review k at (k + 1) / (n + 1) of the run. */
  start(durationMs: number): void {
    const n = this.world.reviewRooms.length;
    this.world.reviewRooms.forEach((roomId, k) => {
      const decision: Decision = { roomId, want: k % 2 === 0 ? 'approved' : 'rejected', accepted: 0, conflictsAfterLoss: 0, attempts: 0, decidedAt: undefined, lastError: undefined };
      this.decisions.push(decision);
      this.loops.push(
        (async () => {
          await sleep(((k + 1) * durationMs) / (n + 1));
          await this.decide(decision, k);
        })(),
      );
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async decide(decision: Decision, k: number): Promise<void> {
    const { admin } = this.world;
    const id = encodeURIComponent(`room-review:${decision.roomId}`);
    const action = decision.want === 'approved' ? 'approve' : 'reject';
    const body = decision.want === 'approved' ? {} : { reason: 'soak: rejected on purpose' };
    let lostAnswer = false;
    for (let attempt = 0; !this.stopped || attempt === 0; attempt++) {
      decision.attempts += 1;
      const gateway = this.gateways[(k + attempt) % this.gateways.length]!;
      try {
        const answer = await call(gateway.url, 'POST', `/api/admin/reviews/${id}/${action}`, { token: admin.token, address: admin.address, body, timeoutMs: 20_000 });
        if (answer.status === 200) {
          decision.accepted += 1;
          decision.decidedAt = Date.now();
          return;
        }
        if (answer.status === 409 && lostAnswer) {
          decision.conflictsAfterLoss += 1;
          decision.decidedAt = Date.now();
          return;
        }
        decision.lastError = `${answer.status} ${JSON.stringify(answer.body)}`;
        // unavailable / deadline_exceeded: the signal may or may not have been recorded.
        if (answer.status === 503 || answer.status === 504) lostAnswer = true;
        else if (answer.status !== 401 && answer.status !== 429 && answer.status < 500) return;
      } catch (err) {
        lostAnswer = true;
        decision.lastError = String(err);
      }
      await sleep(500);
    }
  }

  /** Waits (up to a minute) for every accepted decision to show, then compares. */
  async outcome(databaseUrl: string): Promise<ReviewOutcome> {
    const { admin } = this.world;
    const decided = this.decisions.filter((d) => d.decidedAt !== undefined);
    const end = Date.now() + 60_000;
    let views = new Map<string, { workflow: string; room: string }>();
    for (;;) {
      views = new Map();
      const rooms = await sql<{ id: string; status: string }>(databaseUrl, 'SELECT id, status FROM rooms WHERE id = ANY($1)', [decided.map((d) => d.roomId)]);
      const roomStatus = new Map(rooms.map((row) => [row.id, row.status]));
      for (const d of decided) {
        const answer = await call(this.gateways[0]!.url, 'GET', `/api/admin/reviews/${encodeURIComponent(`room-review:${d.roomId}`)}`, { token: admin.token, address: admin.address }).catch(() => undefined);
        const workflow = answer?.status === 200 ? String(answer.body.state) : `http ${answer?.status ?? 'error'}`;
        views.set(d.roomId, { workflow, room: roomStatus.get(d.roomId) ?? 'missing' });
      }
      const settled = decided.every((d) => {
        const view = views.get(d.roomId)!;
        return view.workflow === d.want && view.room === (d.want === 'approved' ? 'active' : 'rejected');
      });
      if (settled || Date.now() > end) break;
      await sleep(1_000);
    }
    const lost: ReviewOutcome['lost'] = [];
    const twice: ReviewOutcome['twice'] = [];
    for (const d of decided) {
      const view = views.get(d.roomId)!;
      const other = d.want === 'approved' ? 'rejected' : 'approved';
      if (d.accepted > 1) twice.push({ roomId: d.roomId, detail: `accepted ${d.accepted} times` });
      else if (view.workflow === other || view.room === (other === 'approved' ? 'active' : 'rejected')) twice.push({ roomId: d.roomId, detail: `wanted ${d.want}, workflow ${view.workflow}, room ${view.room}` });
      else if (view.workflow !== d.want || view.room !== (d.want === 'approved' ? 'active' : 'rejected')) lost.push({ roomId: d.roomId, want: d.want, ...view });
    }
    return { pendingAtStart: this.world.reviewRooms.length, decided: decided.length, lost, twice, undecided: this.decisions.length - decided.length };
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
