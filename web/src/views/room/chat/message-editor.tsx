/** Editing one's own message in place: Enter saves, Escape cancels. */
import { useEffect, useRef, useState } from 'preact/hooks';

export function MessageEditor(props: { text: string; busy: boolean; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(props.text);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const save = () => {
    const value = text.trim();
    if (value === props.text) props.onCancel();
    else if (value) props.onSave(value);
  };
  return (
    <form
      class="chat-edit"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <label class="visually-hidden" for="chat-edit-input">
        Edit message
      </label>
      <input
        id="chat-edit-input"
        ref={input}
        type="text"
        value={text}
        maxLength={2000}
        autocomplete="off"
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            props.onCancel();
          }
        }}
      />
      <button type="submit" class="button-primary" disabled={props.busy}>
        Save
      </button>
      <button type="button" class="button-quiet" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}
