/**
 * The player's subtitle menu: off, each track of the item, and the text size. The choice is this
 * viewer's, kept in this browser (player/subtitles/choice.ts); a viewer who chose nothing sees the
 * room's default track.
 */
import { useRef } from 'preact/hooks';
import { choose, subtitleChoice, SUBTITLE_SIZES } from '../../../player/subtitles/choice.js';
import type { SubtitleState } from '../../../player/subtitles/use-subtitles.js';
import { useT } from '../../../i18n/use-t.js';
import './subtitle-menu.css';

export function SubtitleMenu(props: { state: SubtitleState }) {
  const t = useT();
  const { tracks, shown } = props.state;
  const menu = useRef<HTMLDetailsElement>(null);
  if (tracks.length === 0) return null;
  const size = subtitleChoice.value.size;
  const pick = (id: string | null) => {
    const track = tracks.find((candidate) => candidate.id === id);
    choose({ track: track ? { name: track.name, ...(track.language !== undefined ? { language: track.language } : {}) } : 'off' });
  };
  return (
    <details class="subtitle-menu" ref={menu}>
      <summary aria-label={t('player.subtitles.menu')} title={t('player.subtitles.menu')}>
        {t('player.subtitles.badge')}
      </summary>
      <div class="subtitle-menu-panel">
        <fieldset>
          <legend>{t('player.subtitles.menu')}</legend>
          <label>
            <input type="radio" name="subtitle-track" checked={shown === null} onChange={() => pick(null)} /> {t('player.subtitles.off')}
          </label>
          {tracks.map((track) => (
            <label key={track.id}>
              <input type="radio" name="subtitle-track" checked={shown === track.id} onChange={() => pick(track.id)} /> {track.name}
              {track.language ? ` (${track.language})` : ''}
              {track.default ? ` · ${t('player.subtitles.roomDefault')}` : ''}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>{t('player.subtitles.textSize')}</legend>
          {SUBTITLE_SIZES.map((option) => (
            <label key={option}>
              <input type="radio" name="subtitle-size" checked={size === option} onChange={() => choose({ size: option })} /> {option}%
            </label>
          ))}
        </fieldset>
      </div>
    </details>
  );
}
