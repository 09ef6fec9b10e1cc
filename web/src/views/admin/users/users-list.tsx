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
import { serviceRoleInWords } from '../format.js';
import { AdminList, ListFilters, SelectFilter, TextFilter, type Column } from '../admin-list.js';
import type { TFunction } from 'i18next';
import { useT } from '../../../i18n/use-t.js';

type User = Schemas['User'];
type Role = User['role'];
type State = User['state'];
interface Filter {
  q: string;
  role: Role | '';
  state: State | '';
}

const PAGE_SIZE = 50;
const ROLES: Role[] = ['user', 'admin', 'root'];
const STATES: State[] = ['active', 'banned'];

function StateCell(props: { state: State }) {
  const t = useT();
  return props.state === 'banned' ? <span class="badge badge-danger">{t('admin.users.states.banned')}</span> : <>{t('admin.users.states.active')}</>;
}

function columns(t: TFunction): Array<Column<User>> {
  return [
    { header: t('admin.users.columns.username'), cell: (user) => <a href={`/admin/users/${user.id}`}>{user.username}</a> },
    { header: t('admin.users.columns.displayName'), cell: (user) => user.displayName },
    { header: t('admin.users.columns.role'), cell: (user) => serviceRoleInWords(user.role) },
    { header: t('admin.users.columns.state'), cell: (user) => <StateCell state={user.state} /> },
    { header: t('admin.users.columns.lastSignIn'), cell: (user) => formatTime(user.lastLoginAt) },
  ];
}

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
  const t = useT();
  const [draft, setDraft] = useState<Filter>({ q: '', role: '', state: '' });
  const [filter, setFilter] = useState<Filter>(draft);
  const { items, loading, error, hasMore, loadMore } = usePaged((cursor) => fetchPage(filter, cursor), [filter]);

  return (
    <Page title={t('admin.users.title')} wide>
      <ListFilters label={t('admin.users.find')} onSearch={() => setFilter({ ...draft })}>
        <TextFilter id="users-q" label={t('admin.users.usernameStarts')} maxLength={32} value={draft.q} onValue={(q) => setDraft({ ...draft, q })} />
        <SelectFilter
          id="users-role"
          label={t('admin.users.columns.role')}
          value={draft.role}
          options={[['', t('admin.users.any')], ...ROLES.map((role): [Role, string] => [role, serviceRoleInWords(role)])]}
          onValue={(role) => setDraft({ ...draft, role })}
        />
        <SelectFilter
          id="users-state"
          label={t('admin.users.columns.state')}
          value={draft.state}
          options={[['', t('admin.users.any')], ...STATES.map((state): [State, string] => [state, t(`admin.users.states.${state}`)])]}
          onValue={(state) => setDraft({ ...draft, state })}
        />
      </ListFilters>
      <AdminList
        label={t('admin.users.title')}
        items={items}
        error={error}
        keyOf={(user) => user.id}
        count={(shown, more) => t(more ? 'admin.users.countMore' : 'admin.users.count', { count: shown })}
        empty={t('admin.users.empty')}
        paging={{ hasMore, loading, loadMore }}
        columns={columns(t)}
      />
    </Page>
  );
}
