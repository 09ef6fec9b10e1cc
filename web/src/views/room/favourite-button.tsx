import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { currentUser } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';

/** Decorative marks beside the word (hidden from screen readers): symbols, not words to translate. */
const STAR = { on: '★', off: '☆' } as const;

/** Stars the room for the home page's favourites (signed-in people only; guests have no home list). */
export function FavouriteButton(props: { roomId: string }) {
  const t = useT();
  const [starred, setStarred] = useState<boolean | null>(null);
  const action = useAction();
  const signedIn = Boolean(currentUser.value);
  useEffect(() => {
    if (!signedIn) return;
    let live = true;
    void call(api.GET('/api/me/favourites'))
      .then(({ rooms }) => live && setStarred(rooms.some((room) => room.id === props.roomId)))
      .catch(() => live && setStarred(false));
    return () => {
      live = false;
    };
  }, [props.roomId, signedIn]);
  if (!signedIn || starred === null) return null;
  const toggle = () =>
    void action.run(async () => {
      const params = { params: { path: { roomId: props.roomId } } };
      await call(starred ? api.DELETE('/api/me/favourites/{roomId}', params) : api.PUT('/api/me/favourites/{roomId}', params));
      setStarred(!starred);
    });
  return (
    <>
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <button type="button" class="button-quiet" aria-pressed={starred} disabled={action.busy} onClick={toggle}>
        <span aria-hidden="true">{starred ? STAR.on : STAR.off}</span> <span class="favourite-word">{t('room.favourite')}</span>
      </button>
    </>
  );
}
