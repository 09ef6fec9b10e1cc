/**
 * The chat moderation part of the room settings form: slow mode, and the word filter (one word
 * or phrase per line, masked or refused). The form owns the values; these are its fields.
 */
import type { WordFilterMode } from '../../../../../contracts/room/moderation.js';
import { useT } from '../../../i18n/use-t.js';

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
  const t = useT();
  const wordsError = props.error('wordFilter.words') ?? props.error('words');
  return (
    <fieldset class="chat-moderation">
      <legend>{t('roomSettings.moderation.legend')}</legend>
      <div class="field">
        <label for="room-slow-mode">{t('roomSettings.moderation.slowMode')}</label>
        <select id="room-slow-mode" value={String(props.slowModeSeconds)} onChange={(event) => props.onSlowMode(Number(event.currentTarget.value))}>
          {SLOW_MODE_CHOICES.map((seconds) => (
            <option key={seconds} value={String(seconds)}>
              {seconds === 0 ? t('roomSettings.moderation.slowModeOff') : t('roomSettings.moderation.slowModeEvery', { seconds })}
            </option>
          ))}
          {!SLOW_MODE_CHOICES.includes(props.slowModeSeconds) && <option value={String(props.slowModeSeconds)}>{t('roomSettings.moderation.slowModeEvery', { seconds: props.slowModeSeconds })}</option>}
        </select>
        <p class="muted">{t('roomSettings.moderation.slowModeHint')}</p>
      </div>
      <div class="field">
        <label for="room-word-filter">{t('roomSettings.moderation.words')}</label>
        <textarea
          id="room-word-filter"
          rows={4}
          value={props.words}
          onInput={(event) => props.onWords(event.currentTarget.value)}
          aria-describedby="room-word-filter-hint"
          aria-invalid={wordsError ? true : undefined}
        />
        <p id="room-word-filter-hint" class="muted">
          {t('roomSettings.moderation.wordsHint')}
        </p>
        {wordsError && <p class="field-error">{wordsError}</p>}
      </div>
      <div class="field">
        <label for="room-word-filter-mode">{t('roomSettings.moderation.mode')}</label>
        <select id="room-word-filter-mode" value={props.mode} onChange={(event) => props.onMode(event.currentTarget.value as WordFilterMode)}>
          <option value="mask">{t('roomSettings.moderation.mask')}</option>
          <option value="block">{t('roomSettings.moderation.block')}</option>
        </select>
      </div>
    </fieldset>
  );
}
