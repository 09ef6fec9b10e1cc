/**
 * The panels beside the video (under it on a phone) as tabs (ARIA tabs pattern: arrow keys move
 * between tabs). Chat comes first: watching together is talking about what plays. A room with
 * nothing playing opens on the playlist instead, for whoever can add to it: adding something is
 * the next step there. Every panel stays mounted while hidden, so chat keeps announcing new
 * messages and forms keep what was typed.
 */
import { useRef, useState } from 'preact/hooks';
import type { RoomSession } from '../../state/room.js';
import { ChatAnnouncer, ChatPanel } from './chat-panel.js';
import { MembersPanel } from './members-panel.js';
import { PlaylistPanel } from './playlist-panel.js';
import { PollsPanel } from './polls-panel.js';
import { SettingsPanel } from './settings-panel.js';
import { CallPanel } from './call/call-panel.js';
import type { RoomCall } from '../../call/room-call.js';
import { useT } from '../../i18n/use-t.js';
import { tvMode } from '../../tv/tv-mode.js';
import { sharedLinkWaits } from '../../pwa/shared-link.js';

type Tab = 'playlist' | 'chat' | 'members' | 'polls' | 'voice' | 'settings';

export function RoomTabs(props: { session: RoomSession; call: RoomCall }) {
  const t = useT();
  const { session } = props;
  const view = session.view.value;
  // Without view_media_resources (guests) there is no list to show.
  const tabs: Tab[] = session.can('view_media_resources') ? ['chat', 'playlist', 'members'] : ['chat', 'members'];
  tabs.push('polls');
  if (session.can('use_webrtc')) tabs.push('voice');
  if (session.can('edit_room_settings') || view?.me.isOwner) tabs.push('settings');
  // A link shared to the app opens the playlist too: its add form has the link filled in.
  const [selected, setSelected] = useState<Tab>(() => ((view?.playback.mediaId == null || sharedLinkWaits(session.roomId)) && session.can('create_media_resource') ? 'playlist' : 'chat'));
  const refs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  const active = tabs.includes(selected) ? selected : tabs[0]!;

  const onKey = (event: KeyboardEvent) => {
    const index = tabs.indexOf(active);
    const next = event.key === 'ArrowRight' ? index + 1 : event.key === 'ArrowLeft' ? index - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? tabs.length - 1 : null;
    if (next === null) return;
    // With a remote, left of the first tab and right of the last leave the list (tv/spatial-nav.ts).
    if (tvMode.value && (next < 0 || next >= tabs.length)) return;
    event.preventDefault();
    const tab = tabs[(next + tabs.length) % tabs.length]!;
    setSelected(tab);
    refs.current[tab]?.focus();
  };

  return (
    <div class="room-side">
      <ChatAnnouncer session={session} />
      <div class="room-tabs" role="tablist" aria-label={t('room.tabs.label')} onKeyDown={onKey}>
        {tabs.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`tab-${tab}`}
            aria-controls={`panel-${tab}`}
            aria-selected={tab === active}
            tabIndex={tab === active ? 0 : -1}
            ref={(element) => {
              refs.current[tab] = element;
            }}
            onClick={() => setSelected(tab)}
          >
            {t(`room.tabs.${tab}`)}
          </button>
        ))}
      </div>
      {tabs.map((tab) => (
        <div key={tab} role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} hidden={tab !== active} class="room-panel">
          {tab === 'playlist' ? (
            <PlaylistPanel session={session} />
          ) : tab === 'chat' ? (
            <ChatPanel session={session} />
          ) : tab === 'members' ? (
            <MembersPanel session={session} />
          ) : tab === 'polls' ? (
            <PollsPanel session={session} />
          ) : tab === 'voice' ? (
            <CallPanel session={session} call={props.call} />
          ) : (
            <SettingsPanel session={session} />
          )}
        </div>
      ))}
    </div>
  );
}
