/**
 * Who converts a Jellyfin or Emby library's files that browsers cannot play as they are: svc's
 * shared transcode (the default) or the media server's own (contracts/http/libraries.ts,
 * `transcoder`). Shown only for those kinds: the server refuses `server` for the others.
 */
import { useT } from '../../../i18n/use-t.js';
import type { LibraryTranscoder } from '../../../state/libraries.js';

/** The choices, each with its words. */
const CHOICES = [
  { value: 'svc', words: 'playlist.library.transcoder.svc' },
  { value: 'server', words: 'playlist.library.transcoder.server' },
] as const;

/** The library kinds whose servers convert media themselves. */
export const SELF_CONVERTING_KINDS: readonly string[] = ['jellyfin', 'emby'];

export function TranscoderChoice(props: { name: string; value: LibraryTranscoder; onValue: (value: LibraryTranscoder) => void; disabled?: boolean; error?: string | undefined }) {
  const t = useT();
  return (
    <fieldset class="library-transcoder" disabled={props.disabled}>
      <legend>{t('playlist.library.transcoder.legend')}</legend>
      {CHOICES.map(({ value, words }) => (
        <label class="check" key={value}>
          <input type="radio" name={props.name} checked={props.value === value} onChange={() => props.onValue(value)} /> {t(words)}
        </label>
      ))}
      <p class="field-hint">{t('playlist.library.transcoder.hint')}</p>
      {props.error && <p class="field-error">{props.error}</p>}
    </fieldset>
  );
}
