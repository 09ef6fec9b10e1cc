/**
 * /signup: the signup methods the server has on, each in its own section. A signup under
 * review shows that it waits for a decision; any other success signs in and returns to `?next=`.
 * Also /auth/confirm-email, the link in the signup email (`emailLink`): only the email section,
 * at the password step with the link's address and code.
 */
import { usePublicInfo } from '../../state/public-info.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useAuthFlow } from '../../auth/auth-flow.js';
import { EmailSignUp } from './email-sign-up.js';
import { useEmailLink, type EmailLinkKind } from '../../auth/email-link.js';
import { withNext } from '../../auth/next-path.js';
import { OAuth2Buttons } from './oauth2-buttons.js';
import { PasskeySignUp } from './passkey-sign-up.js';
import { PasswordSignUp } from './password-sign-up.js';
import { PendingReview } from './pending-review.js';
import { SecondFactor } from './second-factor.js';
import './auth.css';

const REVIEW_HINT = 'An administrator reviews new accounts made this way before they can sign in.';

export function SignUp(props: { emailLink?: EmailLinkKind }) {
  const flow = useAuthFlow();
  const { info, error, retry } = usePublicInfo();
  const link = useEmailLink(props.emailLink);

  if (flow.step.kind === 'pending_review') {
    return (
      <Page title="Sign up">
        <PendingReview reviewId={flow.step.reviewId} />
      </Page>
    );
  }
  if (flow.step.kind === 'second_factor') {
    return (
      <Page title="Sign up">
        <SecondFactor challenge={flow.step.challenge} onSignedIn={flow.finish} onCancel={flow.restart} />
      </Page>
    );
  }
  if (!info) {
    return (
      <Page title="Sign up">
        {error ? (
          <>
            <ErrorNotice error={error} />
            <button type="button" onClick={retry}>
              Try again
            </button>
          </>
        ) : (
          <p role="status">Loading the signup methods…</p>
        )}
      </Page>
    );
  }
  const { signup } = info;
  const password = signup.password.enabled && (info.signIn.opaque || info.signIn.password);
  const passkey = signup.webauthn.enabled;
  const oauth2 = signup.oauth2.filter((instance) => instance.enabled);
  const none = !password && !passkey && !signup.email.enabled && oauth2.length === 0;
  // A working link shows only its own step; the other methods would only be in the way.
  const linkOnly = Boolean(link?.code) && signup.email.enabled;
  return (
    <Page title="Sign up">
      {link?.problem && (
        <p class="notice notice-error" role="alert">
          {link.problem} Open the link in the email again, or sign up below.
        </p>
      )}
      {link && !signup.email.enabled && (
        <p class="notice notice-error" role="alert">
          This server does not take signups by email right now, so the link cannot be used.
        </p>
      )}
      {none && (
        <p class="notice" role="status">
          This server does not take new accounts right now.
          {info.guests && ' You can still join rooms that admit guests from the sign-in page.'}
        </p>
      )}
      <div class="auth-grid">
        {password && !linkOnly && (
          <section class="auth-panel" aria-labelledby="signup-password">
            <h2 id="signup-password">With a password</h2>
            {signup.password.needsReview && <p class="muted">{REVIEW_HINT}</p>}
            <PasswordSignUp opaque={info.signIn.opaque} onAnswer={flow.finish} />
          </section>
        )}
        {passkey && !linkOnly && (
          <section class="auth-panel" aria-labelledby="signup-passkey">
            <h2 id="signup-passkey">With a passkey</h2>
            <p class="muted">Your device keeps the key; you sign in with its screen lock or security key instead of a password.</p>
            {signup.webauthn.needsReview && <p class="muted">{REVIEW_HINT}</p>}
            <PasskeySignUp onAnswer={flow.finish} />
          </section>
        )}
        {signup.email.enabled && (
          <section class="auth-panel" aria-labelledby="signup-email">
            <h2 id="signup-email">With your email address</h2>
            {signup.email.needsReview && <p class="muted">{REVIEW_HINT}</p>}
            <EmailSignUp opaque={info.signIn.opaque} onAnswer={flow.finish} initial={link ?? undefined} />
          </section>
        )}
        {oauth2.length > 0 && !linkOnly && (
          <section class="auth-panel" aria-labelledby="signup-oauth2">
            <h2 id="signup-oauth2">With another service</h2>
            {oauth2.some((instance) => instance.needsReview) && <p class="muted">{REVIEW_HINT}</p>}
            <OAuth2Buttons instances={oauth2.map((instance) => instance.instanceName)} verb="Sign up" next={flow.next} />
          </section>
        )}
      </div>
      <p>
        Already have an account? <a href={withNext('/signin', flow.next)}>Sign in</a>
      </p>
    </Page>
  );
}
