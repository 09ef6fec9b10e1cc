/**
 * Accounts in username order, a page at a time ("Show more" appends the next), narrowed by a
 * username prefix, a role and a state as GET /api/admin/users allows.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { Page } from '../../../ui/page.js';
import { formatTime } from '../../../ui/format.js';
import { usePaged, type PageOf } from '../../../ui/use-paged.js';
import { AdminList, ListFilters, SelectFilter, TextFilter, type Column } from '../admin-list.js';

type User = Schemas['User'];
type Role = User['role'];
type State = User['state'];
interface Filter {
  q: string;
  role: Role | '';
  state: State | '';
}

const PAGE_SIZE = 50;
const ROLES: Array<[Filter['role'], string]> = [
  ['', 'Any'],
  ['user', 'user'],
  ['admin', 'admin'],
  ['root', 'root'],
];
const STATES: Array<[Filter['state'], string]> = [
  ['', 'Any'],
  ['active', 'active'],
  ['banned', 'banned'],
];
const COLUMNS: Array<Column<User>> = [
  { header: 'Username', cell: (user) => <a href={`/admin/users/${user.id}`}>{user.username}</a> },
  { header: 'Display name', cell: (user) => user.displayName },
  { header: 'Role', cell: (user) => user.role },
  { header: 'State', cell: (user) => (user.state === 'banned' ? <span class="badge badge-danger">banned</span> : 'active') },
  { header: 'Last sign-in', cell: (user) => formatTime(user.lastLoginAt) },
];

async function fetchPage(filter: Filter, cursor: string | undefined): Promise<PageOf<User>> {
  const q = filter.q.trim();
  const page = await call(
    api.GET('/api/admin/users', {
      params: { query: { limit: PAGE_SIZE, ...(q ? { q } : {}), ...(filter.role ? { role: filter.role } : {}), ...(filter.state ? { state: filter.state } : {}), ...(cursor ? { cursor } : {}) } },
    }),
  );
  return { items: page.users, nextCursor: page.nextCursor };
}

export function UsersList() {
  const [draft, setDraft] = useState<Filter>({ q: '', role: '', state: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  const { items, loading, error, hasMore, loadMore } = usePaged((cursor) => fetchPage(filter, cursor), [filter]);

  return (
    <Page title="Users" wide>
      <ListFilters label="Find users" onSearch={() => setFilter({ ...draft })}>
        <TextFilter id="users-q" label="Username starts with" maxLength={32} value={draft.q} onValue={(q) => setDraft({ ...draft, q })} />
        <SelectFilter id="users-role" label="Role" value={draft.role} options={ROLES} onValue={(role) => setDraft({ ...draft, role })} />
        <SelectFilter id="users-state" label="State" value={draft.state} options={STATES} onValue={(state) => setDraft({ ...draft, state })} />
      </ListFilters>
      <AdminList
        label="Users"
        items={items}
        error={error}
        keyOf={(user) => user.id}
        count={(shown, more) => `${shown}${more ? '+' : ''} account${shown === 1 ? '' : 's'}`}
        empty="No account matches these filters."
        paging={{ hasMore, loading, loadMore }}
        columns={COLUMNS}
      />
    </Page>
  );
}
