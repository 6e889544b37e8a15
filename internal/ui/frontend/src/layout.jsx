// The frame around every page: the navigation rail and the user menu.

import { Link } from './router.jsx';

const items = [
  { id: 'projects', href: '/projects', label: 'Projects', icon: 'M3 6h7l2 2h9v11H3z' },
  { id: 'experiments', href: '/experiments', label: 'Experiments', icon: 'M9 3v6L4 19h16L15 9V3M8 3h8' },
  { id: 'models', href: '/models', label: 'Models', icon: 'M12 3l8 4.5v9L12 21l-8-4.5v-9zM12 12l8-4.5M12 12v9M12 12L4 7.5' },
  { id: 'queues', href: '/queues', label: 'Queues', icon: 'M4 6h16M4 12h16M4 18h10' },
  { id: 'workers', href: '/workers', label: 'Workers', icon: 'M4 5h16v10H4zM8 19h8M12 15v4' },
  { id: 'settings', href: '/settings', label: 'Settings', icon: 'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zM12 2v3M12 19v3M2 12h3M19 12h3' },
];

export function Layout({ nav, user, onLogout, children }) {
  return (
    <div class="shell">
      <nav class="rail" aria-label="Main">
        <Link href="/projects" class="brand" aria-label="Trove home">
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true"><rect width="32" height="32" rx="7" fill="currentColor" /><path d="M7 11h18v4H18v12h-4V15H7z" fill="#fff" /></svg>
          <span>Trove</span>
        </Link>
        {items.map(it => (
          <Link key={it.id} href={it.href} class={nav === it.id ? 'rail-item active' : 'rail-item'} data-nav={it.id}>
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true"><path d={it.icon} fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" stroke-linecap="round" /></svg>
            <span>{it.label}</span>
          </Link>
        ))}
        <div class="rail-foot">
          {user && <div class="rail-user" title={user.id}>{user.name || user.id}</div>}
          <button class="btn btn-ghost btn-small" onClick={onLogout} data-testid="logout">Log out</button>
        </div>
      </nav>
      <main class="page">{children}</main>
    </div>
  );
}
