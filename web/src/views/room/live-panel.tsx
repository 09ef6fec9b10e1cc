/**
 * A live item's on-air badge (follows the room's `live` events), and for members with
 * `publish_livestream` where to publish: the whole RTMP URL and the OBS split (server, stream
 * key), each with a copy button, and rotating the key (which cuts a running publish).
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';

export function LiveBadge(props: { online: boolean }) {
  const t = useT();
  return <span class={`badge${props.online ? ' badge-live' : ''}`}>{props.online ? t('room.live.onAir') : t('room.live.offline')}</span>;
}

export function StreamKeyPanel(props: { roomId: string; mediaId: string; title: string }) {
  const t = useT();
  const [key, setKey] = useState<Schemas['StreamKey'] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  const path = { roomId: props.roomId, mediaId: props.mediaId };
  const show = () => action.run(async () => setKey(await call(api.GET('/api/rooms/{roomId}/playlist/{mediaId}/stream-key', { params: { path } }))));
  const rotate = () =>
    action.run(async () => {
      setConfirming(false);
      setKey(await call(api.POST('/api/rooms/{roomId}/playlist/{mediaId}/stream-key', { params: { path } })));
    });

  if (!key) {
    return (
      <div class="stream-key">
        <ErrorNotice error={action.error} onDismiss={action.clear} />
        <button type="button" class="button-quiet" disabled={action.busy} onClick={() => void show()}>
          {t('room.live.publishSettings')}
          <span class="visually-hidden">{t('room.live.publishSettingsFor', { title: props.title })}</span>
        </button>
      </div>
    );
  }
  return (
    <div class="stream-key" aria-label={t('room.live.publishSettingsLabel', { title: props.title })}>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <CopyRow label={t('room.live.publishUrl')} value={key.url} secret />
      <CopyRow label={t('room.live.server')} value={key.server} />
      <CopyRow label={t('room.live.streamKey')} value={key.streamKey} secret />
      {confirming ? (
        <p class="confirm-row">
          <span>{t('room.live.rotateWarning')}</span>
          <button type="button" class="button-danger" disabled={action.busy} onClick={() => void rotate()}>
            {t('room.live.rotate')}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t('room.live.keep')}
          </button>
        </p>
      ) : (
        <button type="button" class="button-quiet" onClick={() => setConfirming(true)}>
          {t('room.live.rotateKey')}
        </button>
      )}
    </div>
  );
}

function CopyRow(props: { label: string; value: string; secret?: boolean }) {
  const t = useT();
  const [shown, setShown] = useState(!props.secret);
  const [copied, setCopied] = useState(false);
  return (
    <div class="copy-row">
      <span class="copy-label">{props.label}</span>
      <code>{shown ? props.value : '•'.repeat(16)}</code>
      {props.secret && (
        <button type="button" class="button-quiet" onClick={() => setShown(!shown)}>
          {shown ? t('room.live.hide') : t('room.live.show')}
        </button>
      )}
      <button
        type="button"
        class="button-quiet"
        onClick={() =>
          void navigator.clipboard.writeText(props.value).then(() => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          })
        }
      >
        {copied ? t('room.live.copied') : t('room.live.copy')}
        <span class="visually-hidden"> {props.label}</span>
      </button>
    </div>
  );
}

/** Adds a live item (its source is this server's RTMP ingest, so it has no URL). */
export function AddLiveItem(props: { roomId: string }) {
  const t = useT();
  const [title, setTitle] = useState(() => t('room.live.defaultTitle'));
  const action = useAction();
  return (
    <form
      class="add-live"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(() => call(api.POST('/api/rooms/{roomId}/playlist', { params: { path: { roomId: props.roomId } }, body: { title: title.trim(), provider: 'live' } })));
      }}
    >
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <label>
        {t('room.live.titleLabel')} <input value={title} required onInput={(event) => setTitle(event.currentTarget.value)} />
      </label>
      <button type="submit" disabled={action.busy}>
        {t('room.live.add')}
      </button>
    </form>
  );
}
