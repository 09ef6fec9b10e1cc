/**
 * Every room whatever its status or visibility, newest first, narrowed by status, visibility
 * and a name search (the filters GET /api/admin/rooms takes), a page at a time.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { formatTime } from '../../../ui/format.js';
import { roomStatusInWords } from '../format.js';
import { usePaged, type PageOf } from '../../../ui/use-paged.js';

type Room = Schemas['AdminRoomSummary'];
interface Filter {
  query: string;
  status: Schemas['RoomStatus'] | '';
  visibility: Schemas['RoomVisibility'] | '';
}

const PAGE_SIZE = 50;

async function fetchPage(filter: Filter, cursor: string | undefined): Promise<PageOf<Room>> {
  const query = filter.query.trim();
  const page = await call(
    api.GET('/api/admin/rooms', {
      params: {
        query: {
          limit: PAGE_SIZE,
          ...(query ? { query } : {}),
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.visibility ? { visibility: filter.visibility } : {}),
          ...(cursor ? { cursor } : {}),
        },
      },
    }),
  );
  return { items: page.rooms, nextCursor: page.nextCursor };
}

export function RoomsList() {
  const [draft, setDraft] = useState<Filter>({ query: '', status: '', visibility: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  const { items: rooms, loading, error, hasMore, loadMore } = usePaged((cursor) => fetchPage(filter, cursor), [filter]);

  return (
    <Page title="Rooms" wide>
      <form
        class="admin-filters"
        role="search"
        aria-label="Find rooms"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter({ ...draft });
        }}
      >
        <div class="field">
          <label for="rooms-query">Name</label>
          <input id="rooms-query" type="search" maxLength={100} value={draft.query} onInput={(event) => setDraft({ ...draft, query: event.currentTarget.value })} />
        </div>
        <div class="field">
          <label for="rooms-status">Status</label>
          <select id="rooms-status" value={draft.status} onChange={(event) => setDraft({ ...draft, status: event.currentTarget.value as Filter['status'] })}>
            <option value="">Any</option>
            <option value="active">active</option>
            <option value="pending_review">waiting for approval</option>
            <option value="rejected">not approved</option>
          </select>
        </div>
        <div class="field">
          <label for="rooms-visibility">Visibility</label>
          <select id="rooms-visibility" value={draft.visibility} onChange={(event) => setDraft({ ...draft, visibility: event.currentTarget.value as Filter['visibility'] })}>
            <option value="">Any</option>
            <option value="public">public</option>
            <option value="hidden">hidden</option>
          </select>
        </div>
        <button type="submit" class="button-primary">
          Search
        </button>
      </form>
      <ErrorNotice error={error} />
      <p class="muted" role="status">
        {rooms === null ? 'Loading…' : `${rooms.length}${hasMore ? '+' : ''} room${rooms.length === 1 ? '' : 's'}`}
      </p>
      {rooms && rooms.length > 0 && (
        <div class="table-wrap" role="region" aria-label="Rooms" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Owner</th>
                <th scope="col">Status</th>
                <th scope="col">Visibility</th>
                <th scope="col">Members</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {rooms.map((room) => (
                <tr key={room.id}>
                  <td>
                    <a href={`/admin/rooms/${room.id}`}>{room.name}</a>
                  </td>
                  <td>{room.ownerUsername ? <a href={`/admin/users/${room.ownerId}`}>{room.ownerUsername}</a> : <span class="muted">{room.ownerId}</span>}</td>
                  <td>{roomStatusInWords(room.status)}</td>
                  <td>{room.visibility}</td>
                  <td>{room.memberCount}</td>
                  <td>{formatTime(room.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {hasMore && (
        <button type="button" disabled={loading} aria-busy={loading} onClick={loadMore}>
          Show more
        </button>
      )}
    </Page>
  );
}
