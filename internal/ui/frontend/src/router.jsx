// A small client-side router over the History API. Paths are the ones the
// ClearML SDK prints (/projects/<p>/experiments/<t>/output/log, ...), so
// its links open the right page.

import { useEffect, useState } from 'preact/hooks';

const listeners = new Set();

export function navigate(to, { replace = false } = {}) {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  listeners.forEach(fn => fn());
}

window.addEventListener('popstate', () => listeners.forEach(fn => fn()));

// useLocation re-renders its component on every navigation. A navigation
// made before its effect subscribed (during the first render, or by a
// child's effect) is caught up once subscribed, so the page never stays on
// the location it was first rendered with.
const here = () => ({ path: location.pathname, search: location.search });

export function useLocation() {
  const [loc, setLoc] = useState(here);
  useEffect(() => {
    const fn = () => setLoc(prev => {
      const next = here();
      return next.path === prev.path && next.search === prev.search ? prev : next;
    });
    listeners.add(fn);
    fn();
    return () => listeners.delete(fn);
  }, []);
  return loc;
}

// match tests a path against a pattern such as "/projects/:project/experiments"
// and returns its parameters, or null. A trailing "*" matches the rest.
export function match(pattern, path) {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  const params = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '*') { params.rest = s.slice(i).map(decodeURIComponent).join('/'); return params; }
    if (i >= s.length) return null;
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return p.length === s.length ? params : null;
}

// Link is an <a> that navigates without reloading the page.
export function Link({ href, children, ...rest }) {
  const onClick = e => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return <a href={href} onClick={onClick} {...rest}>{children}</a>;
}

export function queryParams(search = location.search) {
  return Object.fromEntries(new URLSearchParams(search));
}
