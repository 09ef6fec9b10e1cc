/** Editing one's own message in place: Enter saves, Escape cancels. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useT } from '../../../i18n/use-t.js';

export function MessageEditor(props: { text: string; busy: boolean; onSave: (text: string) => void; onCancel: () => void }) {
  const t = useT();
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
        {t('chat.editor.label')}
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
        {t('common.save')}
      </button>
      <button type="button" class="button-quiet" onClick={props.onCancel}>
        {t('common.cancel')}
      </button>
    </form>
  );
}
