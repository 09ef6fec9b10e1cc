/**
 * The viewer's subtitle choice, kept in this browser (a choice of the viewer, not of the room):
 * which track, by its name and language so the choice carries over to the next item with a
 * track of that name ("English"), or "off"; and the text size. Nothing chosen: the room's
 * default track shows, else the item's first own track.
 */
import { signal } from '@preact/signals';
import type { Schemas } from '../../api/types.js';

export type SubtitleTrack = Schemas['SubtitleTrack'];

export const SUBTITLE_SIZES = [75, 100, 150] as const;
export type SubtitleSize = (typeof SUBTITLE_SIZES)[number];

export interface SubtitleChoice {
  /** null: nothing chosen (the room's default applies). */
  track: { name: string; language?: string } | 'off' | null;
  size: SubtitleSize;
}

const KEY = 'svc.subtitles';
const NOTHING: SubtitleChoice = { track: null, size: 100 };

function stored(): SubtitleChoice {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? 'null') as Partial<SubtitleChoice> | null;
    if (!raw || typeof raw !== 'object') return NOTHING;
    const size = (SUBTITLE_SIZES as readonly number[]).includes(raw.size ?? 0) ? (raw.size as SubtitleSize) : 100;
    const track = raw.track === 'off' ? 'off' : raw.track && typeof raw.track.name === 'string' ? { name: raw.track.name, ...(typeof raw.track.language === 'string' ? { language: raw.track.language } : {}) } : null;
    return { track, size };
  } catch {
    return NOTHING; // storage refused or garbled: start from nothing
  }
}

/** The choice of this browser; the player and the menu read and set it. */
export const subtitleChoice = signal<SubtitleChoice>(stored());

export function choose(change: Partial<SubtitleChoice>): void {
  subtitleChoice.value = { ...subtitleChoice.value, ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(subtitleChoice.value));
  } catch {
    // kept for this page only
  }
}

/** The track to show of `tracks` for `choice`: the chosen name (and language), else a track of the chosen language, else the default. */
export function pickTrack(tracks: readonly SubtitleTrack[], choice: SubtitleChoice['track']): SubtitleTrack | null {
  if (choice === 'off') return null;
  if (choice) {
    const same = tracks.find((track) => track.name === choice.name && track.language === choice.language) ?? tracks.find((track) => track.name === choice.name);
    const language = choice.language === undefined ? undefined : tracks.find((track) => track.language === choice.language);
    const found = same ?? language;
    if (found) return found;
  }
  return tracks.find((track) => track.default) ?? tracks.find((track) => /^\d+$/.test(track.id)) ?? null;
}
