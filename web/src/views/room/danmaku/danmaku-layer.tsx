/**
 * Danmaku over the video: the current item's comments (listed when it becomes current, added as
 * they arrive) scroll right to left when the player's time reaches each one's position; a
 * comment arriving live shows at once. Elements are made and removed directly (not through
 * component state) and moved by CSS transforms, so a busy room costs no re-renders; at most the
 * viewer's density limit are on screen. The layer takes no clicks and is hidden from screen
 * readers (the comments are for the eye; the chat is the accessible conversation).
 */
import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { DanmakuComment } from '../../../../../contracts/room/model.js';
import { DanmakuSchedule } from '../../../danmaku/schedule.js';
import { DENSITY_LIMIT, danmakuSettings } from '../../../danmaku/settings.js';
import type { PlayerSync } from '../../../player/player-sync.js';
import type { RoomSession } from '../../../state/room.js';
import './danmaku.css';

/** Rows a comment may take; each new one goes to the row free the longest. */
const LANES = 10;

export function DanmakuLayer(props: { room: RoomSession; sync: PlayerSync | null; mediaId: string | null }) {
  const { room, sync, mediaId } = props;
  const enabled = room.view.value?.room.danmaku === true;
  const settings = danmakuSettings.value;
  const layer = useRef<HTMLDivElement>(null);
  const schedule = useMemo(() => new DanmakuSchedule(), []);
  const limit = useRef(DENSITY_LIMIT[settings.density]);
  limit.current = DENSITY_LIMIT[settings.density];
  const show = enabled && settings.show;

  useEffect(() => {
    schedule.load([]);
    if (!enabled || !mediaId || !sync) return;
    const element = layer.current;
    const laneFreeAt = new Array<number>(LANES).fill(0);
    /** Live comments already shown, so the player reaching their time does not show them twice. */
    const shownLive = new Set<string>();
    const fly = (comment: DanmakuComment) => {
      if (!element || element.childElementCount >= limit.current) return;
      const now = performance.now();
      let lane = 0;
      for (let i = 1; i < LANES; i += 1) if ((laneFreeAt[i] ?? 0) < (laneFreeAt[lane] ?? 0)) lane = i;
      laneFreeAt[lane] = now + 1500;
      const span = document.createElement('span');
      span.className = 'danmaku-comment';
      span.textContent = comment.text;
      span.dataset.position = String(comment.position);
      span.dataset.id = comment.id;
      span.style.top = `${(lane / LANES) * 90}%`;
      span.addEventListener('animationend', () => span.remove());
      element.append(span);
    };
    let cancelled = false;
    if (room.can('view_chat_history')) {
      room.send<{ comments: DanmakuComment[] }>({ kind: 'danmaku.list', mediaId }).then(
        (result) => {
          if (!cancelled) for (const comment of result.comments) schedule.add(comment);
        },
        () => undefined, // without the list, live comments still show
      );
    }
    const off = room.onEvent((event) => {
      if (event.type !== 'danmaku' || event.comment.mediaId !== mediaId) return;
      if (schedule.add(event.comment)) {
        shownLive.add(event.comment.id);
        fly(event.comment);
      }
    });
    let frame = 0;
    const tick = () => {
      const player = sync.player;
      element?.classList.toggle('is-paused', player.paused);
      for (const comment of schedule.advance(player.currentTime)) if (!shownLive.has(comment.id)) fly(comment);
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => {
      cancelled = true;
      off();
      cancelAnimationFrame(frame);
      element?.replaceChildren();
    };
  }, [room, sync, mediaId, enabled, schedule]);

  return <div class={show ? 'danmaku-layer' : 'danmaku-layer is-hidden'} ref={layer} aria-hidden="true" style={{ opacity: settings.opacity }} />;
}
