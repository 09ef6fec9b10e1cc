/**
 * "Pick your copy": shown under the player while the current item is a file on each viewer's
 * own disk and this page has no copy of it yet (web/src/player/local-file.ts). The chosen file
 * is checked against the item's fingerprint; a match plays at once under the room's sync, a
 * mismatch says what differs and the picker keeps asking. It also says who in the room already
 * plays the file (members whose player reports this item), so a viewer without it knows whom to ask.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import type { RoomSession } from '../../../state/room.js';
import { formatSize, type LocalFileRequest } from '../../../player/local-file.js';
import { useT } from '../../../i18n/use-t.js';
import './local-file-picker.css';

/** Player reports that mean "has this item loaded": it can only load from a copy of the file. */
const HAS_IT = new Set(['ready', 'buffering', 'ended']);

export function LocalFilePicker(props: { request: LocalFileRequest; room: RoomSession; mediaId: string | null }) {
  const t = useT();
  const { request, room, mediaId } = props;
  const wanted = request.wanted.value;
  const id = useId();
  const [checking, setChecking] = useState(false);
  const [mismatch, setMismatch] = useState<string | null>(null);
  // A new item asks afresh.
  useEffect(() => setMismatch(null), [wanted?.fingerprint]);
  if (!wanted) return null;

  const view = room.view.value;
  const holders = (view?.members ?? []).filter(
    (member) => member.userId !== view?.me.userId && member.online && member.player?.mediaId === mediaId && HAS_IT.has(member.player.state),
  );
  const choose = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    if (!file) return;
    setChecking(true);
    setMismatch(null);
    try {
      setMismatch(await request.offer(file));
    } catch (error) {
      setMismatch(error instanceof Error ? error.message : String(error));
    } finally {
      setChecking(false);
      // The same file chosen again (after a fix on disk) must fire a change again.
      input.value = '';
    }
  };

  return (
    <section class="local-pick" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} class="local-pick-heading">
        {t('player.localFile.heading', { name: wanted.name, size: formatSize(wanted.size) })}
      </h3>
      <p class="muted local-pick-hint">{t('player.localFile.hint')}</p>
      <label class="local-pick-input">
        <span class="label">{t('player.localFile.input', { name: wanted.name })}</span>
        <input type="file" disabled={checking} aria-describedby={mismatch ? `${id}-mismatch` : undefined} onChange={(event) => void choose(event.currentTarget)} />
      </label>
      {checking && (
        <p role="status" class="muted">
          {t('player.localFile.checking')}
        </p>
      )}
      {mismatch && (
        <p role="alert" id={`${id}-mismatch`} class="field-error">
          {mismatch}
        </p>
      )}
      {view?.members && (
        <p class="local-pick-holders">
          {holders.length > 0
            ? t('player.localFile.holders', { names: holders.map((member) => member.name).join(t('player.localFile.holdersSeparator')) })
            : t('player.localFile.nobody')}
        </p>
      )}
    </section>
  );
}
