/**
 * Everyone in a crowd, a page at a time (GET /api/rooms/{roomId}/members): a crowd's room view
 * names only its owner and admins and no event tells of the others one by one
 * (docs/2026-11-30-crowds.md), so the members panel reads them when it is open. The request is
 * passed in: this module runs, and is tested, without the page's API client.
 */
import { batch, signal } from '@preact/signals';
import type { MemberView } from './room-view.js';

/** What the list is narrowed by. */
export interface MemberFilter {
  /** Part of a display name, in any case; empty for everyone. */
  q: string;
  onlineOnly: boolean;
}

/** The query of one request, as the endpoint takes it. */
export interface MemberPageQuery {
  limit: number;
  cursor?: string;
  q?: string;
  online?: 'true';
}

export interface MemberPage {
  members: MemberView[];
  nextCursor?: string | undefined;
  /** Every active member the filter matches. */
  total: number;
}

export type FetchMemberPage = (query: MemberPageQuery) => Promise<MemberPage>;

// Every row carries its own manage controls; a smaller page than the server's default keeps the panel quick.
export const MEMBER_PAGE_SIZE = 50;

/** Where a read starts: the first page, or after what is already shown. */
interface Start {
  cursor: string | undefined;
  kept: MemberView[];
  pages: number;
}

export class MemberPages {
  /** Everyone read so far, by user id; null until the first page arrives. */
  readonly members = signal<MemberView[] | null>(null);
  readonly total = signal(0);
  readonly hasMore = signal(false);
  readonly loading = signal(false);
  readonly error = signal<unknown>(null);
  private filter: MemberFilter = { q: '', onlineOnly: false };
  private cursor: string | undefined;
  private pages = 0;
  // Bumped by every read that replaces the list: an answer asked for before it is dropped, so a
  // slow answer for an old search cannot overwrite a newer one.
  private generation = 0;

  constructor(private readonly fetchPage: FetchMemberPage) {}

  /** The first page for `filter`; what is shown stays until it arrives. */
  show(filter: MemberFilter): Promise<void> {
    this.filter = filter;
    return this.read(++this.generation, { cursor: undefined, kept: [], pages: 0 }, 1);
  }

  /**
   * As many pages as are shown, read again: after a kick, a ban or a role change, which no event
   * tells a crowd's list about.
   */
  refresh(): Promise<void> {
    return this.read(++this.generation, { cursor: undefined, kept: [], pages: 0 }, Math.max(1, this.pages));
  }

  /** The next page, appended; nothing while a read is on its way or after the last page. */
  more(): Promise<void> {
    if (this.loading.value || this.cursor === undefined) return Promise.resolve();
    return this.read(this.generation, { cursor: this.cursor, kept: this.members.value ?? [], pages: this.pages }, 1);
  }

  private async read(asked: number, start: Start, wanted: number): Promise<void> {
    this.loading.value = true;
    this.error.value = null;
    try {
      let { cursor, kept: members } = start;
      let total = this.total.value;
      let read = 0;
      do {
        const page = await this.fetchPage(this.query(cursor));
        if (asked !== this.generation) return;
        members = [...members, ...page.members];
        cursor = page.nextCursor;
        total = page.total;
        read += 1;
      } while (read < wanted && cursor !== undefined);
      this.cursor = cursor;
      this.pages = start.pages + read;
      batch(() => {
        this.members.value = members;
        this.total.value = total;
        this.hasMore.value = cursor !== undefined;
      });
    } catch (error) {
      if (asked === this.generation) this.error.value = error;
    } finally {
      if (asked === this.generation) this.loading.value = false;
    }
  }

  private query(cursor: string | undefined): MemberPageQuery {
    const { q, onlineOnly } = this.filter;
    return { limit: MEMBER_PAGE_SIZE, ...(cursor !== undefined ? { cursor } : {}), ...(q ? { q } : {}), ...(onlineOnly ? { online: 'true' as const } : {}) };
  }
}
