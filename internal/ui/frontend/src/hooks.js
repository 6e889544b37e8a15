// Data loading for pages: one hook that runs an API call, keeps its
// loading/error state, re-runs when its inputs change, and can poll so
// running experiments update live.

import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

// useApi(fn, deps, {poll}) runs fn(signal) → Promise and returns
// {data, error, loading, reload}. With poll (ms) it re-runs on that period
// while the page is visible; a failed poll keeps the last data.
export function useApi(fn, deps, { poll = 0, enabled = true } = {}) {
  const [state, setState] = useState({ data: undefined, error: null, loading: enabled });
  const gen = useRef(0);
  const run = useCallback(async (quiet) => {
    const my = ++gen.current;
    const ctl = new AbortController();
    if (!quiet) setState(s => ({ ...s, loading: true, error: null }));
    try {
      const data = await fn(ctl.signal);
      if (my === gen.current) setState({ data, error: null, loading: false });
    } catch (error) {
      if (error.name === 'AbortError') return;
      if (my === gen.current) setState(s => ({ data: quiet ? s.data : undefined, error, loading: false }));
    }
  }, deps); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => { if (enabled) run(false); }, [run, enabled]);
  useEffect(() => {
    if (!poll || !enabled) return undefined;
    const t = setInterval(() => { if (!document.hidden) run(true); }, poll);
    return () => clearInterval(t);
  }, [run, poll, enabled]);
  return { ...state, reload: () => run(true) };
}

// usePersisted is useState kept in localStorage under key (column choices,
// chart settings), so a page looks the same the next time it opens.
export function usePersisted(key, initial) {
  const [v, setV] = useState(() => {
    try { const s = localStorage.getItem('trove.' + key); return s === null ? initial : JSON.parse(s); } catch { return initial; }
  });
  const set = useCallback(x => setV(prev => {
    const next = typeof x === 'function' ? x(prev) : x;
    try { localStorage.setItem('trove.' + key, JSON.stringify(next)); } catch { /* full or disabled */ }
    return next;
  }), [key]);
  return [v, set];
}
