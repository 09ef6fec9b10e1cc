/**
 * Polls: open one (with create_poll), choose an answer (with vote; choosing again changes it),
 * watch the counts move as others vote, and close it (its author or an admin), or let its timer
 * close it. Closed polls stay listed under the open one (docs/2026-11-26-votes-and-polls.md).
 */
import { useEffect, useState } from 'preact/hooks';
import { issueFor } from '../../api/errors.js';
import type { Poll } from '../../../../contracts/room/model.js';
import type { RoomSession } from '../../state/room.js';
import { withMyChoice } from '../../state/room-view.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';

/** When a new poll closes: by hand, or after a while (the catalogue word of `room.polls.timers`). */
const TIMERS: Array<[label: 'none' | 'oneMinute' | 'fiveMinutes' | 'fifteenMinutes' | 'oneHour', ms: number | null]> = [
  ['none', null],
  ['oneMinute', 60_000],
  ['fiveMinutes', 300_000],
  ['fifteenMinutes', 900_000],
  ['oneHour', 3_600_000],
];

export function PollsPanel(props: { session: RoomSession }) {
  const t = useT();
  const { session } = props;
  const view = session.view.value;
  const polls = view?.polls ?? [];
  const open = polls.find((poll) => poll.closedAt === null);
  return (
    <section aria-labelledby="polls-heading">
      <h2 id="polls-heading">{t('room.polls.heading')}</h2>
      {!open && session.can('create_poll') && <OpenPollForm session={session} />}
      {polls.length === 0 ? <p class="muted">{t('room.polls.empty')}</p> : polls.map((poll) => <PollCard key={poll.id} session={session} poll={poll} />)}
    </section>
  );
}

function OpenPollForm(props: { session: RoomSession }) {
  const t = useT();
  const [question, setQuestion] = useState('');
  const [options, setOptions] = useState('');
  const [timer, setTimer] = useState(0);
  const action = useAction();
  const issue = (key: string) => issueFor(action.error, key);
  const submit = async (event: Event) => {
    event.preventDefault();
    const choices = options.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
    const durationMs = TIMERS[timer]?.[1] ?? null;
    const ok = await action.run(() => props.session.send({ kind: 'poll.open', question, options: choices, ...(durationMs !== null ? { durationMs } : {}) }));
    if (ok) {
      setQuestion('');
      setOptions('');
    }
  };
  return (
    <form class="form poll-form" onSubmit={(event) => void submit(event)} aria-labelledby="poll-form-heading">
      <h3 id="poll-form-heading">{t('room.polls.formHeading')}</h3>
      <ErrorNotice error={action.error} />
      <Field label={t('room.polls.question')} required value={question} onValue={setQuestion} maxLength={200} error={issue('question')} />
      <div class="field">
        <label for="poll-options">{t('room.polls.answers')}</label>
        <textarea id="poll-options" rows={4} required value={options} onInput={(event) => setOptions(event.currentTarget.value)} />
      </div>
      <div class="field">
        <label for="poll-timer">{t('room.polls.closes')}</label>
        <select id="poll-timer" value={String(timer)} onChange={(event) => setTimer(Number(event.currentTarget.value))}>
          {TIMERS.map(([label], index) => (
            <option key={label} value={String(index)}>
              {t(`room.polls.timers.${label}`)}
            </option>
          ))}
        </select>
      </div>
      <SubmitButton busy={action.busy}>{t('room.polls.open')}</SubmitButton>
    </form>
  );
}

function PollCard(props: { session: RoomSession; poll: Poll }) {
  const t = useT();
  const { session, poll } = props;
  const view = session.view.value;
  const action = useAction();
  const isOpen = poll.closedAt === null;
  const total = poll.counts.reduce((sum, count) => sum + count, 0);
  const canVote = isOpen && session.can('vote');
  const canClose = isOpen && (poll.createdBy === view?.me.userId || view?.me.role === 'admin');
  const vote = (choice: number) =>
    action.run(async () => {
      await session.send({ kind: 'poll.vote', pollId: poll.id, choice });
      const current = session.view.value;
      if (current) session.view.value = withMyChoice(current, poll.id, choice);
    });
  return (
    <article class={isOpen ? 'poll is-open' : 'poll'} aria-labelledby={`poll-${poll.id}`}>
      <h3 id={`poll-${poll.id}`}>{poll.question}</h3>
      <p class="muted">
        {isOpen ? (poll.closesAt !== null ? <Countdown until={poll.closesAt} /> : t('room.polls.isOpen')) : t('room.polls.isClosed')} · {t('room.polls.votes', { count: total })}
      </p>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <ul class="poll-options">
        {poll.options.map((option, index) => {
          const count = poll.counts[index] ?? 0;
          const share = total === 0 ? 0 : Math.round((count / total) * 100);
          const mine = poll.myChoice === index;
          return (
            <li key={index} class={mine ? 'is-mine' : undefined}>
              <div class="poll-option-line">
                {canVote ? (
                  <button type="button" class="button-quiet" aria-pressed={mine} disabled={action.busy} onClick={() => void vote(index)}>
                    {option}
                  </button>
                ) : (
                  <span>{mine ? t('room.polls.yourVote', { option }) : option}</span>
                )}
                <span class="poll-count" data-testid="poll-count">{`${count} (${share} %)`}</span>
              </div>
              <div class="poll-bar" aria-hidden="true">
                <div style={{ width: `${share}%` }} />
              </div>
            </li>
          );
        })}
      </ul>
      {canClose && (
        <button type="button" onClick={() => void action.run(() => session.send({ kind: 'poll.close', pollId: poll.id }))} disabled={action.busy}>
          {t('room.polls.close')}
        </button>
      )}
    </article>
  );
}

/** "Closes in 4:05", ticking every second (the browser's clock: a second or two of skew is harmless here). */
function Countdown(props: { until: number }) {
  const t = useT();
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.ceil((props.until - now) / 1000));
  return <>{t('room.polls.closesIn', { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}` })}</>;
}
