/**
 * What every sign-in and signup method does with the server's answer: a session signs in and
 * goes back to `next`; a second-factor challenge or a pending review changes what the page
 * shows. One hook, so the methods differ only in how they get the answer.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { Schemas } from '../api/types.js';
import { signedIn } from '../state/session.js';
import { safeNext } from './next-path.js';

export type AuthAnswer = Schemas['SignedIn'] | Schemas['SecondFactorRequired'] | Schemas['PendingReview'];

export type AuthStep = { kind: 'methods' } | { kind: 'second_factor'; challenge: Schemas['SecondFactorRequired'] } | { kind: 'pending_review'; reviewId: string };

export interface AuthFlow {
  step: AuthStep;
  /** The same-origin path to return to. */
  next: string;
  finish: (answer: AuthAnswer) => void;
  restart: () => void;
}

export function useAuthFlow(): AuthFlow {
  const { query, route } = useLocation();
  const next = safeNext(query.next);
  const [step, setStep] = useState<AuthStep>({ kind: 'methods' });
  return {
    step,
    next,
    finish(answer) {
      if (answer.status === 'signed_in') {
        signedIn(answer);
        route(next, true);
      } else if (answer.status === 'second_factor_required') setStep({ kind: 'second_factor', challenge: answer });
      else setStep({ kind: 'pending_review', reviewId: answer.reviewId });
    },
    restart: () => setStep({ kind: 'methods' }),
  };
}
