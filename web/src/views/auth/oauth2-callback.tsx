/**
 * /oauth2/callback/:instance, the page a provider instance's `redirectUrl` points at. It posts
 * what the provider put on the URL, unchanged, to `POST /api/auth/oauth2/{instance}/callback`;
 * the browser adds the flow's binding cookie. The answer signs in, asks for the second factor,
 * says the signup waits for review, or (a bind from the account page) goes back there.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { session, signedIn } from '../../state/session.js';
import { Page } from '../../ui/page.js';
import { AuthError } from './auth-error.js';
import { takeRememberedNext } from '../../auth/next-path.js';
import { PendingReview } from './pending-review.js';
import { SecondFactor } from './second-factor.js';
import { useT } from '../../i18n/use-t.js';
import './auth.css';

type Step = { kind: 'working' } | { kind: 'failed'; error: unknown } | { kind: 'second_factor'; challenge: Schemas['SecondFactorRequired'] } | { kind: 'pending_review'; reviewId: string };

const FORWARDED = ['state', 'code', 'iss', 'error', 'error_description', 'error_uri'] as const;

export function OAuth2Callback() {
  const t = useT();
  const { params } = useRoute();
  const { route } = useLocation();
  const instance = params.instance ?? '';
  const [step, setStep] = useState<Step>({ kind: 'working' });
  const sent = useRef(false);
  // Wait for the session restore: a bind needs the same user's access token on the callback.
  const restoring = session.value === undefined;

  useEffect(() => {
    if (restoring || sent.current) return;
    sent.current = true;
    const query = new URLSearchParams(window.location.search);
    const body: Record<string, string> = {};
    for (const key of FORWARDED) {
      const value = query.get(key);
      if (value) body[key] = value;
    }
    // The code works once: a reload of this page must not look like a second attempt.
    window.history.replaceState(null, '', window.location.pathname);
    if (!body.state) {
      setStep({ kind: 'failed', error: new Error(t('auth.oauth2.noState')) });
      return;
    }
    call(api.POST('/api/auth/oauth2/{instance}/callback', { params: { path: { instance } }, body: body as { state: string } })).then(
      (answer) => {
        if (answer.status === 'signed_in') {
          signedIn(answer);
          route(takeRememberedNext(), true);
        } else if (answer.status === 'bound') route('/account', true);
        else if (answer.status === 'second_factor_required') setStep({ kind: 'second_factor', challenge: answer });
        else setStep({ kind: 'pending_review', reviewId: answer.reviewId });
      },
      (error: unknown) => setStep({ kind: 'failed', error }),
    );
  }, [restoring, instance]);

  return (
    <Page title={t('auth.oauth2.title', { instance })}>
      {step.kind === 'working' && <p role="status">{t('auth.oauth2.finishing', { instance })}</p>}
      {step.kind === 'failed' && (
        <>
          <AuthError error={step.error} />
          <p>
            <a href="/signin">{t('auth.oauth2.back')}</a>
          </p>
        </>
      )}
      {step.kind === 'pending_review' && <PendingReview reviewId={step.reviewId} />}
      {step.kind === 'second_factor' && (
        <SecondFactor
          challenge={step.challenge}
          onSignedIn={(answer) => {
            signedIn(answer);
            route(takeRememberedNext(), true);
          }}
          onCancel={() => route('/signin')}
        />
      )}
    </Page>
  );
}
