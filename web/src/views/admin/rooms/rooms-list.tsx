/**
 * Every room whatever its status or visibility, newest first, narrowed by status, visibility
 * and a name search (the filters GET /api/admin/rooms takes), a page at a time.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { Page } from '../../../ui/page.js';
import { formatTime } from '../../../ui/format.js';
import { roomStatusInWords } from '../format.js';
import { usePaged, type PageOf } from '../../../ui/use-paged.js';
import { AdminList, ListFilters, SelectFilter, TextFilter, type Column } from '../admin-list.js';

type Room = Schemas['AdminRoomSummary'];
interface Filter {
  query: string;
  status: Schemas['RoomStatus'] | '';
  visibility: Schemas['RoomVisibility'] | '';
}

const PAGE_SIZE = 50;
const STATUSES: Array<[Filter['status'], string]> = [
  ['', 'Any'],
  ['active', 'active'],
  ['pending_review', 'waiting for approval'],
  ['rejected', 'not approved'],
];
const VISIBILITIES: Array<[Filter['visibility'], string]> = [
  ['', 'Any'],
  ['public', 'public'],
  ['hidden', 'hidden'],
];
const COLUMNS: Array<Column<Room>> = [
  { header: 'Name', cell: (room) => <a href={`/admin/rooms/${room.id}`}>{room.name}</a> },
  {
    header: 'Owner',
    cell: (room) => (room.ownerUsername ? <a href={`/admin/users/${room.ownerId}`}>{room.ownerUsername}</a> : <span class="muted">{room.ownerId}</span>),
  },
  { header: 'Status', cell: (room) => roomStatusInWords(room.status) },
  { header: 'Visibility', cell: (room) => room.visibility },
  { header: 'Members', cell: (room) => room.memberCount },
  { header: 'Created', cell: (room) => formatTime(room.createdAt) },
];

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
  const { items, loading, error, hasMore, loadMore } = usePaged((cursor) => fetchPage(filter, cursor), [filter]);

  return (
    <Page title="Rooms" wide>
      <ListFilters label="Find rooms" onSearch={() => setFilter({ ...draft })}>
        <TextFilter id="rooms-query" label="Name" maxLength={100} value={draft.query} onValue={(query) => setDraft({ ...draft, query })} />
        <SelectFilter id="rooms-status" label="Status" value={draft.status} options={STATUSES} onValue={(status) => setDraft({ ...draft, status })} />
        <SelectFilter id="rooms-visibility" label="Visibility" value={draft.visibility} options={VISIBILITIES} onValue={(visibility) => setDraft({ ...draft, visibility })} />
      </ListFilters>
      <AdminList
        label="Rooms"
        items={items}
        error={error}
        keyOf={(room) => room.id}
        count={(shown, more) => `${shown}${more ? '+' : ''} room${shown === 1 ? '' : 's'}`}
        empty="No room matches these filters."
        paging={{ hasMore, loading, loadMore }}
        columns={COLUMNS}
      />
    </Page>
  );
}
