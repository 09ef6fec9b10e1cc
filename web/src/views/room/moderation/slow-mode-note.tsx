/**
 * Slow mode by the chat composer: the room's pace, and after a send (or a refusal naming the
 * wait) how long until the next message may go. The server decides (the room actor); this only
 * tells the person, so the Send button stays usable and a refusal explains itself.
 */
import { useEffect, useState } from 'preact/hooks';
import { asApiError } from '../../../api/errors.js';
import { useT } from '../../../i18n/use-t.js';

/** The wait a refusal names: the slow mode issue `retryAfterMs`, else the transport's Retry-After. */
export function waitOf(error: unknown): number | undefined {
  const failure = asApiError(error);
  if (failure.code !== 'rate_limited') return undefined;
  const named = Number(failure.issues.find((issue) => issue.key === 'retryAfterMs')?.message);
  if (Number.isFinite(named) && named > 0) return named;
  return failure.retryAfterSeconds !== undefined ? failure.retryAfterSeconds * 1000 : undefined;
}

/** A refusal by the room's slow mode (it names its wait), rather than the service's rate limit. */
export function isSlowModeRefusal(error: unknown): boolean {
  if (error == null) return false;
  const failure = asApiError(error);
  return failure.code === 'rate_limited' && failure.issues.some((issue) => issue.key === 'retryAfterMs');
}

/** Seconds left until `until` (ms since epoch), counting down once a second; 0 when past. */
function useSecondsLeft(until: number): number {
  const left = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const now = left();
      setSeconds(now);
      if (now === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
}

export function SlowModeNote(props: { seconds: number; until: number }) {
  const t = useT();
  const left = useSecondsLeft(props.until);
  return (
    <p class="muted slow-mode-note" role="status">
      <span>{t('chat.slowMode.pace', { seconds: props.seconds })}</span>
      {left > 0 && <span class="slow-mode-wait">{t('chat.slowMode.wait', { seconds: left })}</span>}
    </p>
  );
}
