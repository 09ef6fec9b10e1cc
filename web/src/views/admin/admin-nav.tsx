/** The links between the admin sections; the current one is marked for sight and for screen readers. */
import { useLocation } from 'preact-iso';
import { useT } from '../../i18n/use-t.js';

const SECTIONS = [
  { href: '/admin', label: 'admin.nav.overview' },
  { href: '/admin/users', label: 'admin.nav.users' },
  { href: '/admin/rooms', label: 'admin.nav.rooms' },
  { href: '/admin/reviews', label: 'admin.nav.reviews' },
  { href: '/admin/settings', label: 'admin.nav.settings' },
] as const;

export function AdminNav() {
  const t = useT();
  const { path } = useLocation();
  const active = (href: string): boolean => (href === '/admin' ? path === '/admin' || path === '/admin/' : path === href || path.startsWith(`${href}/`));
  return (
    <nav class="admin-nav" aria-label={t('admin.nav.label')}>
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.href}>
            <a href={section.href} aria-current={active(section.href) ? 'page' : undefined}>
              {t(section.label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
