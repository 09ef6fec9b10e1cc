/**
 * Room settings for members with `edit_room_settings` (name, visibility, password, join
 * approval, wait-for-everyone, what plays when an item ends, per-role permissions, emotes), and
 * deleting the room for its owner.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { issueFor } from '../../api/errors.js';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { PermissionsEditor } from './permissions-editor.js';
import { EmoteManager } from './emote-manager.js';
import { useAction } from '../../ui/use-action.js';
import { ChatModerationFields, wordsOf } from './moderation/chat-moderation-fields.js';
import { useT } from '../../i18n/use-t.js';

/** The thresholds offered; the API takes any whole percent (a value set elsewhere is shown too). */
const VOTE_SKIP_CHOICES = [0, 25, 33, 50, 66, 75, 100];
/** What the room does when an item ends, in the order offered. */
const QUEUE_MODES = ['stop', 'next', 'repeat_one', 'repeat_all', 'shuffle', 'vote'] as const;

export function SettingsPanel(props: { session: RoomSession }) {
  const { session } = props;
  const t = useT();
  const view = session.view.value;
  // Kept here: the form remounts with the saved room (its key), which would forget it.
  const [saved, setSaved] = useState(false);
  if (!view) return null;
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('roomSettings.heading')}</h2>
      {session.can('edit_room_settings') && (
        <>
          <RoomSettingsForm key={view.room.updatedAt} session={session} saved={saved} setSaved={setSaved} />
          <PermissionsEditor roomId={session.roomId} />
          <EmoteManager session={session} />
        </>
      )}
      {view.me.isOwner && <DeleteRoom roomId={session.roomId} />}
    </section>
  );
}

function RoomSettingsForm(props: { session: RoomSession; saved: boolean; setSaved: (saved: boolean) => void }) {
  const { saved, setSaved } = props;
  const t = useT();
  const room = props.session.view.value!.room;
  const [name, setName] = useState(room.name);
  const [visibility, setVisibility] = useState(room.visibility);
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [requireJoinApproval, setApproval] = useState(room.requireJoinApproval);
  const [waitForAllReady, setWait] = useState(room.waitForAllReady);
  const [queueMode, setQueueMode] = useState(room.queueMode);
  const [voteSkipPercent, setVoteSkipPercent] = useState(room.voteSkipPercent);
  const [danmaku, setDanmaku] = useState(room.danmaku);
  const filter = props.session.view.value!.wordFilter;
  const [slowModeSeconds, setSlowMode] = useState(room.slowModeSeconds);
  const [filterWords, setFilterWords] = useState((filter?.words ?? []).join('\n'));
  const [filterMode, setFilterMode] = useState(filter?.mode ?? 'mask');
  const action = useAction();
  const issue = (key: string) => issueFor(action.error, key);

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const ok = await action.run(() =>
      call(
        api.PATCH('/api/rooms/{roomId}', {
          params: { path: { roomId: room.id } },
          body: { name: name.trim(), visibility, requireJoinApproval, waitForAllReady, queueMode, voteSkipPercent, danmaku, slowModeSeconds, wordFilter: { mode: filterMode, words: wordsOf(filterWords) }, ...(removePassword ? { password: null } : password ? { password } : {}) },
        }),
      ),
    );
    setSaved(ok);
  };

  return (
    <form class="form" onSubmit={(event) => void submit(event)} aria-labelledby="room-settings-heading">
      <h3 id="room-settings-heading">{t('roomSettings.room.heading')}</h3>
      <ErrorNotice error={action.error} />
      <Field label={t('roomSettings.room.name')} required value={name} onValue={setName} maxLength={100} error={issue('name')} />
      <div class="field">
        <label for="room-visibility">{t('roomSettings.room.visibility')}</label>
        <select id="room-visibility" value={visibility} onChange={(event) => setVisibility(event.currentTarget.value as typeof visibility)}>
          <option value="public">{t('roomSettings.room.public')}</option>
          <option value="hidden">{t('roomSettings.room.hidden')}</option>
        </select>
      </div>
      {!removePassword && (
        <Field
          label={t(room.hasPassword ? 'roomSettings.room.newPassword' : 'roomSettings.room.password')}
          type="password"
          autocomplete="new-password"
          value={password}
          onValue={setPassword}
          hint={t(room.hasPassword ? 'roomSettings.room.passwordKept' : 'roomSettings.room.passwordNone')}
          error={issue('password')}
        />
      )}
      {room.hasPassword && (
        <label class="check">
          <input type="checkbox" checked={removePassword} onChange={(event) => setRemovePassword(event.currentTarget.checked)} /> {t('roomSettings.room.removePassword')}
        </label>
      )}
      <label class="check">
        <input type="checkbox" checked={requireJoinApproval} onChange={(event) => setApproval(event.currentTarget.checked)} /> {t('roomSettings.room.approval')}
      </label>
      <label class="check">
        <input type="checkbox" checked={waitForAllReady} onChange={(event) => setWait(event.currentTarget.checked)} /> {t('roomSettings.room.waitForAll')}
      </label>
      <label class="check">
        <input type="checkbox" checked={danmaku} onChange={(event) => setDanmaku(event.currentTarget.checked)} /> {t('roomSettings.room.danmaku')}
      </label>
      <div class="field">
        <label for="room-queue-mode">{t('roomSettings.room.queueMode')}</label>
        <select id="room-queue-mode" value={queueMode} onChange={(event) => setQueueMode(event.currentTarget.value as typeof queueMode)}>
          {QUEUE_MODES.map((mode) => (
            <option key={mode} value={mode}>
              {t(`roomSettings.room.queue.${mode}`)}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="room-vote-skip">{t('roomSettings.room.voteSkip')}</label>
        <select id="room-vote-skip" value={String(voteSkipPercent)} onChange={(event) => setVoteSkipPercent(Number(event.currentTarget.value))}>
          {VOTE_SKIP_CHOICES.map((percent) => (
            <option key={percent} value={String(percent)}>
              {percent === 0 ? t('roomSettings.room.voteSkipOff') : t('roomSettings.room.voteSkipAt', { percent })}
            </option>
          ))}
          {!VOTE_SKIP_CHOICES.includes(voteSkipPercent) && <option value={String(voteSkipPercent)}>{t('roomSettings.room.voteSkipAt', { percent: voteSkipPercent })}</option>}
        </select>
      </div>
      <ChatModerationFields
        slowModeSeconds={slowModeSeconds}
        onSlowMode={setSlowMode}
        words={filterWords}
        onWords={setFilterWords}
        mode={filterMode}
        onMode={setFilterMode}
        error={issue}
      />
      <SubmitButton busy={action.busy}>{t('roomSettings.room.save')}</SubmitButton>
      <p role="status" class="muted">
        {saved ? t('roomSettings.room.saved') : ''}
      </p>
    </form>
  );
}

function DeleteRoom(props: { roomId: string }) {
  const t = useT();
  const { route } = useLocation();
  const [asking, setAsking] = useState(false);
  const action = useAction();
  const remove = async () => {
    if (await action.run(() => call(api.DELETE('/api/rooms/{roomId}', { params: { path: { roomId: props.roomId } } })))) route('/');
  };
  return (
    <section aria-labelledby="delete-heading" class="danger-zone">
      <h3 id="delete-heading">{t('roomSettings.deleteRoom.heading')}</h3>
      <ErrorNotice error={action.error} />
      <p class="muted">{t('roomSettings.deleteRoom.body')}</p>
      {asking ? (
        <p class="confirm-row">
          <button type="button" class="button-danger" onClick={() => void remove()} disabled={action.busy}>
            {t('roomSettings.deleteRoom.confirm')}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('common.cancel')}
          </button>
        </p>
      ) : (
        <button type="button" class="button-danger" onClick={() => setAsking(true)}>
          {t('roomSettings.deleteRoom.open')}
        </button>
      )}
    </section>
  );
}
