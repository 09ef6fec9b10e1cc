/** "Join by link": paste a room's link (or its code) and open the room. */
import { useId, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { roomPathFrom } from './room-link.js';

export function JoinByLink() {
  const { route } = useLocation();
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const open = (event: Event) => {
    event.preventDefault();
    const path = roomPathFrom(text);
    if (path) route(path);
    else setError('Paste the whole link a friend sent you (it contains “/rooms/”), or the room code at its end.');
  };
  return (
    <form class="form" onSubmit={open} noValidate>
      <div class="field">
        <label for={id}>Room link or code</label>
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
            {error}
          </p>
        )}
      </div>
      <button type="submit">Open the room</button>
    </form>
  );
}
