/**
 * The chat moderation part of the room settings form: slow mode, and the word filter (one word
 * or phrase per line, masked or refused). The form owns the values; these are its fields.
 */
import type { WordFilterMode } from '../../../../../contracts/room/moderation.js';

/** The paces offered; the API takes any whole number of seconds up to 600 (a value set elsewhere is shown too). */
const SLOW_MODE_CHOICES = [0, 5, 10, 30, 60, 120, 300, 600];

/** The textarea's lines as the list the API takes (the room trims, lower-cases and drops repeats). */
export function wordsOf(lines: string): string[] {
  return lines
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

export function ChatModerationFields(props: {
  slowModeSeconds: number;
  onSlowMode: (seconds: number) => void;
  words: string;
  onWords: (lines: string) => void;
  mode: WordFilterMode;
  onMode: (mode: WordFilterMode) => void;
  error: (key: string) => string | undefined;
}) {
  const wordsError = props.error('wordFilter.words') ?? props.error('words');
  return (
    <fieldset class="chat-moderation">
      <legend>Chat moderation</legend>
      <div class="field">
        <label for="room-slow-mode">Slow mode</label>
        <select id="room-slow-mode" value={String(props.slowModeSeconds)} onChange={(event) => props.onSlowMode(Number(event.currentTarget.value))}>
          {SLOW_MODE_CHOICES.map((seconds) => (
            <option key={seconds} value={String(seconds)}>
              {seconds === 0 ? 'Off' : `One message every ${seconds} s`}
            </option>
          ))}
          {!SLOW_MODE_CHOICES.includes(props.slowModeSeconds) && <option value={String(props.slowModeSeconds)}>{`One message every ${props.slowModeSeconds} s`}</option>}
        </select>
        <p class="muted">Moderators (members who may delete messages) are not slowed.</p>
      </div>
      <div class="field">
        <label for="room-word-filter">Filtered words</label>
        <textarea
          id="room-word-filter"
          rows={4}
          value={props.words}
          onInput={(event) => props.onWords(event.currentTarget.value)}
          aria-describedby="room-word-filter-hint"
          aria-invalid={wordsError ? true : undefined}
        />
        <p id="room-word-filter-hint" class="muted">
          One word or phrase per line, up to 200. Words match whole words; Chinese and Japanese match anywhere in a message.
        </p>
        {wordsError && <p class="field-error">{wordsError}</p>}
      </div>
      <div class="field">
        <label for="room-word-filter-mode">A message with a filtered word</label>
        <select id="room-word-filter-mode" value={props.mode} onChange={(event) => props.onMode(event.currentTarget.value as WordFilterMode)}>
          <option value="mask">Is sent with the word starred out</option>
          <option value="block">Is not sent</option>
        </select>
      </div>
    </fieldset>
  );
}
