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
import type { TFunction } from 'i18next';
import { useT } from '../../../i18n/use-t.js';

type Room = Schemas['AdminRoomSummary'];
interface Filter {
  query: string;
  status: Schemas['RoomStatus'] | '';
  visibility: Schemas['RoomVisibility'] | '';
}

const PAGE_SIZE = 50;
const STATUSES: Array<Schemas['RoomStatus']> = ['active', 'pending_review', 'rejected'];
const VISIBILITIES: Array<Schemas['RoomVisibility']> = ['public', 'hidden'];

function columns(t: TFunction): Array<Column<Room>> {
  return [
    { header: t('admin.rooms.columns.name'), cell: (room) => <a href={`/admin/rooms/${room.id}`}>{room.name}</a> },
    {
      header: t('admin.rooms.columns.owner'),
      cell: (room) => (room.ownerUsername ? <a href={`/admin/users/${room.ownerId}`}>{room.ownerUsername}</a> : <span class="muted">{room.ownerId}</span>),
    },
    { header: t('admin.rooms.columns.status'), cell: (room) => roomStatusInWords(room.status) },
    { header: t('admin.rooms.columns.visibility'), cell: (room) => t(`admin.rooms.visibilities.${room.visibility}`) },
    { header: t('admin.rooms.columns.members'), cell: (room) => room.memberCount },
    { header: t('admin.rooms.columns.created'), cell: (room) => formatTime(room.createdAt) },
  ];
}

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
  const t = useT();
  const [draft, setDraft] = useState<Filter>({ query: '', status: '', visibility: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  const { items, loading, error, hasMore, loadMore } = usePaged((cursor) => fetchPage(filter, cursor), [filter]);

  return (
    <Page title={t('admin.rooms.title')} wide>
      <ListFilters label={t('admin.rooms.find')} onSearch={() => setFilter({ ...draft })}>
        <TextFilter id="rooms-query" label={t('admin.rooms.columns.name')} maxLength={100} value={draft.query} onValue={(query) => setDraft({ ...draft, query })} />
        <SelectFilter
          id="rooms-status"
          label={t('admin.rooms.columns.status')}
          value={draft.status}
          options={[['', t('admin.rooms.any')], ...STATUSES.map((status): [Schemas['RoomStatus'], string] => [status, roomStatusInWords(status)])]}
          onValue={(status) => setDraft({ ...draft, status })}
        />
        <SelectFilter
          id="rooms-visibility"
          label={t('admin.rooms.columns.visibility')}
          value={draft.visibility}
          options={[['', t('admin.rooms.any')], ...VISIBILITIES.map((visibility): [Schemas['RoomVisibility'], string] => [visibility, t(`admin.rooms.visibilities.${visibility}`)])]}
          onValue={(visibility) => setDraft({ ...draft, visibility })}
        />
      </ListFilters>
      <AdminList
        label={t('admin.rooms.title')}
        items={items}
        error={error}
        keyOf={(room) => room.id}
        count={(shown, more) => t(more ? 'admin.rooms.countMore' : 'admin.rooms.count', { count: shown })}
        empty={t('admin.rooms.empty')}
        paging={{ hasMore, loading, loadMore }}
        columns={columns(t)}
      />
    </Page>
  );
}
