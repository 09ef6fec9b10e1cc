/** "Join by link": paste a room's link (or its code) and open the room. */
import { useId, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { roomPathFrom } from './room-link.js';
import { useT } from '../../i18n/use-t.js';

export function JoinByLink() {
  const t = useT();
  const { route } = useLocation();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState(false);
  const open = (event: Event) => {
    event.preventDefault();
    const path = roomPathFrom(text);
    if (path) route(path);
    else setError(true);
  };
  return (
    <form class="form" onSubmit={open} noValidate>
      <div class="field">
        <label for={id}>{t('rooms.joinByLink.label')}</label>
        <input
          id={id}
          type="text"
          value={text}
          onInput={(event) => setText(event.currentTarget.value)}
          required
          autocomplete="off"
          spellcheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <p class="field-error" id={`${id}-error`}>
            {t('rooms.joinByLink.problem', { path: '/rooms/' })}
          </p>
        )}
      </div>
      <button type="submit">{t('rooms.joinByLink.open')}</button>
    </form>
  );
}
