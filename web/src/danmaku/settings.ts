/**
 * A viewer's danmaku settings, kept per device (localStorage `svc.danmaku`): whether to show
 * comments, how many at once (density) and how opaque. Another device, or another viewer on
 * this one, chooses for themselves; the room only says whether danmaku is on at all.
 */
import { signal } from '@preact/signals';

export type DanmakuDensity = 'low' | 'normal' | 'high';

export interface DanmakuSettings {
  show: boolean;
  density: DanmakuDensity;
  /** 0.2..1 */
  opacity: number;
}

/** Comments on screen at once, per density; past it, new ones are skipped. */
export const DENSITY_LIMIT: Readonly<Record<DanmakuDensity, number>> = { low: 6, normal: 16, high: 40 };

const KEY = 'svc.danmaku';
const DEFAULTS: DanmakuSettings = { show: true, density: 'normal', opacity: 0.85 };

function read(): DanmakuSettings {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<DanmakuSettings>;
    return {
      show: typeof raw.show === 'boolean' ? raw.show : DEFAULTS.show,
      density: raw.density === 'low' || raw.density === 'normal' || raw.density === 'high' ? raw.density : DEFAULTS.density,
      opacity: typeof raw.opacity === 'number' && raw.opacity >= 0.2 && raw.opacity <= 1 ? raw.opacity : DEFAULTS.opacity,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

export const danmakuSettings = signal<DanmakuSettings>(read());

export function setDanmakuSettings(change: Partial<DanmakuSettings>): void {
  danmakuSettings.value = { ...danmakuSettings.value, ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(danmakuSettings.value));
  } catch {
    // Storage may be off (private windows): the choice lasts for this page.
  }
}
