/**
 * One open room in the page: the socket, the member's view of the room (snapshot plus events),
 * chat and pins. Views read the signals; commands go over the socket so their effects arrive as
 * the same events everyone else gets.
 */
import { computed, signal } from '@preact/signals';
import type { RoomCommand } from '../../../contracts/room/commands.js';
import type { Permission } from '../../../contracts/permissions/names.js';
import { api, call } from '../api/client.js';
import { browserEnvironment } from '../realtime/browser-environment.js';
import { RoomConnection } from '../realtime/connection.js';
import { receiveNotification } from './notifications.js';
import { RoomEmotes } from './room-emotes.js';
import { applyChatEvent, applyPinEvent, applyRoomEvent, type ChatMessage, type MemberRoomView, type RoomEvent } from './room-view.js';

const CHAT_PAGE = 50;

export class RoomSession {
  readonly view = signal<MemberRoomView | null>(null);
  readonly chat = signal<ChatMessage[]>([]);
  readonly pins = signal<ChatMessage[]>([]);
  /** Whether older chat messages exist beyond those loaded. */
  readonly moreChat = signal(false);
  readonly connection: RoomConnection;
  readonly permissions = computed(() => new Set<Permission>(this.view.value?.me.permissions ?? []));
  readonly emotes: RoomEmotes;
  private chatCursor: string | undefined;
  private readonly eventListeners = new Set<(event: RoomEvent, at: number) => void>();
  private readonly snapshotListeners = new Set<(view: MemberRoomView) => void>();

  constructor(readonly roomId: string) {
    this.emotes = new RoomEmotes(roomId);
    this.connection = new RoomConnection(
      roomId,
      {
        snapshot: (message) => {
          this.view.value = message.view;
          void this.loadChat();
          void this.emotes.read();
          for (const listener of this.snapshotListeners) listener(message.view);
        },
        event: (message) => this.apply(message.event, message.at),
        notification: (message) => receiveNotification(message.notification),
      },
      browserEnvironment(),
    );
  }

  can(permission: Permission): boolean {
    return this.permissions.value.has(permission);
  }

  start(): void {
    void this.connection.open();
  }

  stop(): void {
    this.connection.close();
    this.emotes.stop();
    this.eventListeners.clear();
    this.snapshotListeners.clear();
  }

  /** Every event after it is applied (the player listens for playback causes, say). */
  onEvent(listener: (event: RoomEvent, at: number) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Every snapshot after it replaced the view (a connect, or a reconnect that could not resume). */
  onSnapshot(listener: (view: MemberRoomView) => void): () => void {
    this.snapshotListeners.add(listener);
    return () => this.snapshotListeners.delete(listener);
  }

  send<T = unknown>(command: RoomCommand, options: { sentAt?: number } = {}): Promise<T> {
    return this.connection.command<T>(command, options);
  }

  async loadOlderChat(): Promise<void> {
    const cursor = this.chatCursor;
    if (!cursor) return;
    const page = await call(api.GET('/api/rooms/{roomId}/chat', { params: { path: { roomId: this.roomId }, query: { cursor, limit: CHAT_PAGE } } }));
    this.chat.value = [...page.messages.slice().reverse(), ...this.chat.value];
    this.chatCursor = page.nextCursor;
    this.moreChat.value = page.nextCursor !== undefined;
  }

  private async loadChat(): Promise<void> {
    if (!this.can('view_chat_history')) return;
    const path = { roomId: this.roomId };
    const [page, pins] = await Promise.all([
      call(api.GET('/api/rooms/{roomId}/chat', { params: { path, query: { limit: CHAT_PAGE } } })),
      call(api.GET('/api/rooms/{roomId}/chat/pins', { params: { path } })),
    ]);
    // Messages that arrived live while the page loaded are kept (dedup by id).
    const history = page.messages.slice().reverse();
    const known = new Set(history.map((message) => message.id));
    this.chat.value = [...history, ...this.chat.value.filter((message) => !known.has(message.id))];
    this.pins.value = pins.messages;
    this.chatCursor = page.nextCursor;
    this.moreChat.value = page.nextCursor !== undefined;
  }

  private apply(event: RoomEvent, at: number): void {
    const view = this.view.value;
    if (view) this.view.value = applyRoomEvent(view, event);
    this.chat.value = applyChatEvent(this.chat.value, event);
    if (event.type === 'chat.message' || event.type === 'chat.edited') this.emotes.notice(event.message.text);
    this.pins.value = applyPinEvent(this.pins.value, event);
    // My permissions follow my role, the room's overrides and server defaults: ask the room.
    const me = this.view.value?.me.userId;
    if (event.type === 'room.updated' || (event.type === 'member.updated' && event.member.userId === me)) void this.reloadStanding();
    for (const listener of this.eventListeners) listener(event, at);
  }

  private async reloadStanding(): Promise<void> {
    const answer = await call(api.GET('/api/rooms/{roomId}', { params: { path: { roomId: this.roomId } } }));
    const view = this.view.value;
    if (view && answer.access === 'member') this.view.value = { ...view, me: answer.me };
  }
}
