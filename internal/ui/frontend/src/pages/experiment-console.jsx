// The console tab: the task's log from events.get_task_log, newest page
// first, with "load older/newer" paging by timestamp, a search that
// highlights matches, a download of the whole log
// (events.download_task_log), and auto-follow while the task runs.

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { call } from '../api.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { toast } from '../components/toast.jsx';
import { LIVE_POLL_MS } from './experiment-actions.jsx';

const PAGE = 500;
// Escape sequences (colours, cursor moves) the terminal would interpret.
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

// toLines splits log events (ascending) into display lines: a line per
// "\n", the last "\r" segment of a progress bar, the event's time on its
// first line.
export function toLines(events) {
  const out = [];
  for (const e of events) {
    const msg = String(e.msg ?? '').replace(ANSI, '').replace(/\n$/, '');
    msg.split('\n').forEach((raw, i) => {
      const segs = raw.split('\r');
      let text = segs.pop();
      while (text === '' && segs.length) text = segs.pop();
      out.push({ key: `${e.timestamp}-${out.length}`, ts: i === 0 ? e.timestamp : null, level: e.level, text });
    });
  }
  return out;
}

const byTime = (a, b) => (a.timestamp || 0) - (b.timestamp || 0);

function fmtTime(ts) {
  const d = new Date(ts);
  return isNaN(d) ? '' : d.toLocaleTimeString(undefined, { hour12: false });
}

function Highlighted({ text, query }) {
  if (!query) return text;
  const low = text.toLowerCase();
  const q = query.toLowerCase();
  const parts = [];
  let at = 0;
  for (let i = low.indexOf(q); i !== -1; i = low.indexOf(q, i + q.length)) {
    if (i > at) parts.push(text.slice(at, i));
    parts.push(<mark key={i}>{text.slice(i, i + q.length)}</mark>);
    at = i + q.length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

async function downloadLog(task) {
  try {
    const res = await fetch('/api/events.download_task_log', {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Clearml-Client': 'Trove-UI' },
      body: JSON.stringify({ task: task.id, line_type: 'text' }),
    });
    if (!res.ok) {
      let msg = `HTTP ${res.status}`;
      try { msg = (await res.json()).meta?.result_msg || msg; } catch { /* not JSON */ }
      throw new Error(`events.download_task_log: ${msg}`);
    }
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `${(task.name || 'task').replace(/[^\w.-]+/g, '_')}.${task.id}.log`;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    toast(e.message, 'error');
  }
}

export function ConsoleTab({ task, live }) {
  const [events, setEvents] = useState(null);
  const [total, setTotal] = useState(0);
  const [hasOlder, setHasOlder] = useState(false);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState('');
  const [query, setQuery] = useState('');
  const [current, setCurrent] = useState(0);
  const [follow, setFollow] = useState(true);
  const box = useRef(null);
  const evRef = useRef([]);
  evRef.current = events || [];

  const fetchPage = (body) => call('events.get_task_log', { task: task.id, batch_size: PAGE, ...body });

  const loadLatest = async () => {
    setError(null);
    try {
      const r = await fetchPage({ navigate_earlier: true });
      const evs = (r.events || []).slice().sort(byTime);
      setEvents(evs);
      setTotal(r.total || 0);
      setHasOlder((r.total || 0) > evs.length);
    } catch (e) { setError(e); }
  };

  const loadOlder = async () => {
    const cur = evRef.current;
    if (!cur.length) return;
    setBusy('older');
    const keep = box.current ? box.current.scrollHeight - box.current.scrollTop : 0;
    try {
      const r = await fetchPage({ navigate_earlier: true, from_timestamp: cur[0].timestamp });
      const older = (r.events || []).slice().sort(byTime);
      const next = [...older, ...evRef.current];
      setEvents(next);
      setTotal(r.total || 0);
      setHasOlder(older.length > 0 && (r.total || 0) > next.length);
      // Keep the lines the user was reading where they were.
      requestAnimationFrame(() => { if (box.current) box.current.scrollTop = box.current.scrollHeight - keep; });
    } catch (e) { toast(e.message, 'error'); }
    setBusy('');
  };

  const loadNewer = async (quiet) => {
    const cur = evRef.current;
    if (!quiet) setBusy('newer');
    try {
      const body = cur.length ? { navigate_earlier: false, from_timestamp: cur[cur.length - 1].timestamp } : { navigate_earlier: true };
      const r = await fetchPage(body);
      const newer = (r.events || []).slice().sort(byTime);
      setTotal(r.total || 0);
      if (newer.length) setEvents([...evRef.current, ...newer]);
      else if (!quiet) toast('No newer lines');
    } catch (e) { if (!quiet) toast(e.message, 'error'); }
    if (!quiet) setBusy('');
  };

  useEffect(() => { setEvents(null); loadLatest(); }, [task.id]);
  // While the task runs, new lines are fetched every few seconds.
  useEffect(() => {
    if (!live) return undefined;
    const t = setInterval(() => { if (!document.hidden && events !== null) loadNewer(true); }, LIVE_POLL_MS);
    return () => clearInterval(t);
  }, [live, task.id, events !== null]);

  // A new status may mean new lines (the end of a run) or none left (a
  // reset): read the newest page again.
  const lastStatus = useRef(task.status);
  useEffect(() => {
    if (lastStatus.current !== task.status && events !== null) loadLatest();
    lastStatus.current = task.status;
  }, [task.status]);

  const lines = useMemo(() => toLines(events || []), [events]);
  const matches = useMemo(() => {
    if (!query) return [];
    const q = query.toLowerCase();
    return lines.reduce((acc, l, i) => (l.text.toLowerCase().includes(q) ? (acc.push(i), acc) : acc), []);
  }, [lines, query]);

  // Follow: stay at the bottom as lines arrive (first load included).
  useEffect(() => {
    if (follow && !query && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [lines.length, follow]);
  useEffect(() => { setCurrent(0); }, [query]);
  useEffect(() => {
    if (!matches.length || !box.current) return;
    const el = box.current.querySelector(`[data-line="${matches[current % matches.length]}"]`);
    if (el) el.scrollIntoView({ block: 'center' });
  }, [current, matches]);

  const onScroll = () => {
    const b = box.current;
    if (!b) return;
    const atBottom = b.scrollHeight - b.scrollTop - b.clientHeight < 24;
    if (atBottom !== follow) setFollow(atBottom);
  };

  if (error) return <ErrorBox error={error} retry={loadLatest} />;
  if (events === null) return <Spinner label="Loading the console…" />;
  const step = d => matches.length && setCurrent(c => (c + d + matches.length) % matches.length);
  const currentLine = matches.length ? matches[current % matches.length] : -1;
  const matchSet = new Set(matches);

  return (
    <div class="xp-console-wrap">
      <div class="toolbar">
        <input type="search" placeholder="Search the console" value={query} data-testid="console-search"
          onInput={e => setQuery(e.target.value)} onKeyDown={e => { if (e.key === 'Enter') { e.preventDefault(); step(e.shiftKey ? -1 : 1); } }} />
        {query && <span class="muted small" data-testid="console-matches">{matches.length ? `${(current % matches.length) + 1} of ${matches.length} lines` : 'no match'}</span>}
        {query && <>
          <button class="btn btn-small" onClick={() => step(-1)} disabled={!matches.length} title="Previous match">↑</button>
          <button class="btn btn-small" onClick={() => step(1)} disabled={!matches.length} title="Next match">↓</button>
        </>}
        <span class="spacer" />
        <span class="muted small">{events.length} of {total} events</span>
        {live && <label class="xp-follow small"><input type="checkbox" checked={follow} onChange={e => setFollow(e.target.checked)} data-testid="console-follow" /> follow</label>}
        <button class="btn btn-small" data-action="download-log" onClick={() => downloadLog(task)} disabled={!total}>Download</button>
      </div>
      <div class="xp-console" data-testid="console" ref={box} onScroll={onScroll}>
        {hasOlder && <div class="xp-console-more"><button class="btn btn-small" data-action="load-older" onClick={loadOlder} disabled={!!busy}>{busy === 'older' ? 'Loading…' : 'Load older lines'}</button></div>}
        {lines.length === 0 && <div class="xp-console-empty">{live ? 'Waiting for the first lines…' : 'This experiment has no console output.'}</div>}
        {lines.map((l, i) => (
          <div key={l.key} data-testid="console-line" data-line={i}
            class={`xp-line${l.level === 'error' || l.level === 'critical' ? ' xp-line-error' : l.level === 'warning' ? ' xp-line-warn' : ''}${matchSet.has(i) ? ' xp-line-match' : ''}${i === currentLine ? ' xp-line-current' : ''}`}>
            <span class="xp-ts">{l.ts ? fmtTime(l.ts) : ''}</span>
            <span class="xp-msg"><Highlighted text={l.text} query={query} /></span>
          </div>
        ))}
        {lines.length > 0 && (live || events.length < total) && <div class="xp-console-more"><button class="btn btn-small" data-action="load-newer" onClick={() => loadNewer(false)} disabled={!!busy}>{busy === 'newer' ? 'Loading…' : 'Load newer lines'}</button></div>}
      </div>
    </div>
  );
}
