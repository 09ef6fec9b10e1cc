/** The links between the admin sections; the current one is marked for sight and for screen readers. */
import { useLocation } from 'preact-iso';

const SECTIONS = [
  { href: '/admin', label: 'Overview' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/rooms', label: 'Rooms' },
  { href: '/admin/reviews', label: 'Reviews' },
  { href: '/admin/settings', label: 'Settings' },
] as const;

export function AdminNav() {
  const { path } = useLocation();
  const active = (href: string): boolean => (href === '/admin' ? path === '/admin' || path === '/admin/' : path === href || path.startsWith(`${href}/`));
  return (
    <nav class="admin-nav" aria-label="Administration">
      <ul>
        {SECTIONS.map((section) => (
          <li key={section.href}>
            <a href={section.href} aria-current={active(section.href) ? 'page' : undefined}>
              {section.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
