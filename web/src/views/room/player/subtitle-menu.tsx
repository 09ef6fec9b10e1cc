/**
 * The player's subtitle menu: off, each track of the item, the item's picture subtitles the
 * server can burn into the video, and the text size. The text track choice is this viewer's,
 * kept in this browser (player/subtitles/choice.ts); a viewer who chose nothing sees the room's
 * default track. A picture subtitle ("eng (picture, burned in)") is chosen for this item only
 * (player/subtitles/burn.ts): the player reloads its source with it burned in, and Off or a
 * text track goes back to the plain source. Entries are radios of one group, named by their
 * labels; a burned one carries `data-burn` (its stream index) for tests.
 */
import { useRef } from 'preact/hooks';
import { choose, subtitleChoice, SUBTITLE_SIZES } from '../../../player/subtitles/choice.js';
import { burnChoice, burnedLabel, burnFor, chooseBurn, type BurnableSubtitle } from '../../../player/subtitles/burn.js';
import type { SubtitleState } from '../../../player/subtitles/use-subtitles.js';
import { useT } from '../../../i18n/use-t.js';
import './subtitle-menu.css';

export function SubtitleMenu(props: { state: SubtitleState; mediaId: string | null; burnable: readonly BurnableSubtitle[] }) {
  const t = useT();
  const { tracks, shown } = props.state;
  const { mediaId, burnable } = props;
  const menu = useRef<HTMLDetailsElement>(null);
  if (tracks.length === 0 && burnable.length === 0) return null;
  const size = subtitleChoice.value.size;
  const burning = burnFor(burnChoice.value, mediaId);
  const pick = (id: string | null) => {
    const track = tracks.find((candidate) => candidate.id === id);
    if (mediaId !== null) chooseBurn(mediaId, null);
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
            <input type="radio" name="subtitle-track" checked={burning === null && shown === null} onChange={() => pick(null)} /> {t('player.subtitles.off')}
          </label>
          {tracks.map((track) => (
            <label key={track.id}>
              <input type="radio" name="subtitle-track" checked={burning === null && shown === track.id} onChange={() => pick(track.id)} /> {track.name}
              {track.language ? ` (${track.language})` : ''}
              {track.default ? ` · ${t('player.subtitles.roomDefault')}` : ''}
            </label>
          ))}
          {mediaId !== null &&
            burnable.map((stream) => (
              <label key={`burn-${stream.index}`}>
                <input type="radio" name="subtitle-track" data-burn={stream.index} checked={burning === stream.index} onChange={() => chooseBurn(mediaId, stream.index)} />{' '}
                {burnedLabel(stream, burnable)}
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
