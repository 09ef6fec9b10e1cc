/**
 * The player's quality menu, beside the subtitle menu: Auto (the rung in use under it) and each
 * height of an item with several rungs (the shared transcode's 1080p / 720p / 480p). The choice
 * is this viewer's, kept in this browser (player/quality.ts) and applied to the next item; the
 * room's sync works on media time, so it never moves anyone out of step. Shown only where the
 * player has a level API (hls.js): Safari's own HLS has none.
 *
 * A menu button (WAI-ARIA APG): the button opens a `menu` of `menuitemradio` entries, Enter,
 * Space or an arrow key opens it on the checked entry, arrows, Home and End move, Escape closes
 * it back to the button, and Tab or a click elsewhere closes it. `data-quality` is the height
 * playing, `data-quality-choice` the choice ("auto" or a height), for tests and debugging.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { rememberQuality, type QualityChoice, type QualityControl } from '../../../player/quality.js';
import { useQuality } from '../../../player/use-quality.js';
import { heightText } from '../../../player/reach-words.js';
import { useT } from '../../../i18n/use-t.js';
import { Icon } from './icons.js';
import './quality-menu.css';

export function QualityMenu(props: { control: QualityControl | null }) {
  const t = useT();
  const state = useQuality(props.control);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  /** Which entry takes the focus when the menu opens: the checked one, or the first or last. */
  const [focusOnOpen, setFocusOnOpen] = useState<'checked' | 'first' | 'last'>('checked');
  const id = useId();

  useEffect(() => {
    if (!open) return;
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const checked = items.find((item) => item.getAttribute('aria-checked') === 'true');
    (focusOnOpen === 'first' ? items[0] : focusOnOpen === 'last' ? items.at(-1) : (checked ?? items[0]))?.focus();
    const outside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open, focusOnOpen]);

  // An item that loses its rungs (the next one plays as it is) closes the menu.
  const offered = props.control !== null && state !== null && state.levels.length > 1;
  useEffect(() => {
    if (!offered) setOpen(false);
  }, [offered]);
  if (!props.control || !state || !offered) return null;
  const control = props.control;

  const openAt = (where: typeof focusOnOpen) => {
    setFocusOnOpen(where);
    setOpen(true);
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
  const pick = (choice: QualityChoice) => {
    rememberQuality(choice);
    control.choose(choice);
    close(true);
  };
  const moveFocus = (event: KeyboardEvent) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitemradio"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next =
      event.key === 'ArrowDown' ? (at + 1) % items.length
      : event.key === 'ArrowUp' ? (at - 1 + items.length) % items.length
      : event.key === 'Home' ? 0
      : event.key === 'End' ? items.length - 1
      : null;
    if (next !== null) {
      event.preventDefault();
      items[next]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };
  const using = state.current === null ? null : heightText(state.current);
  const entries: QualityChoice[] = ['auto', ...state.levels];

  return (
    <div class="quality-menu" ref={root} data-quality={state.current ?? undefined} data-quality-choice={String(state.choice)}>
      <button
        type="button"
        ref={button}
        aria-label={t('player.quality.menu')}
        title={t('player.quality.menu')}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `${id}-menu` : undefined}
        onClick={() => (open ? close(false) : openAt('checked'))}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            openAt(event.key === 'ArrowDown' ? 'checked' : 'last');
          }
        }}
      >
        <Icon name="quality" />
      </button>
      {open && (
        <div class="quality-menu-panel" role="menu" id={`${id}-menu`} aria-label={t('player.quality.menu')} ref={menu} onKeyDown={moveFocus}>
          {entries.map((entry) => {
            const checked = entry === state.choice;
            return entry === 'auto' ? (
              <button key="auto" type="button" role="menuitemradio" tabIndex={-1} aria-checked={checked} aria-label={t('player.quality.auto')}
                aria-describedby={using ? `${id}-using` : undefined} onClick={() => pick('auto')}>
                {t('player.quality.auto')}
                {using && (
                  <span class="quality-using" id={`${id}-using`}>
                    {t('player.quality.autoUsing', { height: using })}
                  </span>
                )}
              </button>
            ) : (
              <button key={entry} type="button" role="menuitemradio" tabIndex={-1} aria-checked={checked} onClick={() => pick(entry)}>
                {heightText(entry)}
              </button>
            );
          })}
        </div>
      )}
    </div>
  );
}
