// The Plotly figures experiments reported (Logger.report_plotly,
// report_scatter2d, report_confusion_matrix, ...), at their latest
// iteration, grouped by metric; side by side per task when comparing.
// plotly.js is large, so it loads only when this panel shows a figure.

import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { loadPlotly } from './plotly.js';
import { colorAt } from './palette.js';
import { PLOTLY_CONFIG, loadUrlPolicy, sanitizeFigure } from '../safeurl.js';
import './charts.css';

const POLL_MS = 30000;
const MAX_PAGES = 20;

function parseFigure(ev) {
  if (ev.plot_str === undefined || ev.plot_str === null) return null;
  if (typeof ev.plot_str === 'object') return ev.plot_str;
  try { return JSON.parse(ev.plot_str); } catch { return null; }
}

// fetchPlots returns [{metric, items: [{variant, taskId, iter, figure}]}]
// ordered by metric and variant.
export async function fetchPlots(taskIds, signal) {
  const items = [];
  if (taskIds.length === 1) {
    const d = await call('events.get_task_plots', { task: taskIds[0], iters: 1 }, { signal });
    for (const ev of d?.plots || []) items.push({ metric: ev.metric, variant: ev.variant, taskId: taskIds[0], iter: ev.iter, figure: parseFigure(ev) });
  } else {
    let scroll = null;
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = { tasks: taskIds, iters: 1, last_iters_per_task_metric: true, model_events: false };
      if (scroll) body.scroll_id = scroll;
      const d = await call('events.get_multi_task_plots', body, { signal });
      for (const [metric, variants] of Object.entries(d?.plots || {})) {
        for (const [variant, byTask] of Object.entries(variants || {})) {
          for (const [taskId, byIter] of Object.entries(byTask || {})) {
            const iters = Object.keys(byIter || {}).map(Number).sort((a, b) => b - a);
            if (!iters.length) continue;
            for (const ev of byIter[String(iters[0])]?.plots || []) items.push({ metric, variant, taskId, iter: iters[0], figure: parseFigure(ev) });
          }
        }
      }
      if (!d?.returned || !d.scroll_id) break;
      scroll = d.scroll_id;
    }
  }
  const byMetric = new Map();
  for (const it of items) {
    if (!byMetric.has(it.metric)) byMetric.set(it.metric, []);
    byMetric.get(it.metric).push(it);
  }
  const order = new Map(taskIds.map((id, i) => [id, i]));
  const cmp = (a, b) => a.localeCompare(b, undefined, { numeric: true });
  return [...byMetric.entries()].sort(([a], [b]) => cmp(a, b)).map(([metric, list]) => ({
    metric,
    items: list.sort((a, b) => cmp(a.variant, b.variant) || (order.get(a.taskId) - order.get(b.taskId))),
  }));
}

export function PlotsPanel({ tasks = [] }) {
  const ids = tasks.map(t => t.id);
  const poll = tasks.some(t => t.status === 'in_progress') ? POLL_MS : 0;
  const st = useApi(signal => fetchPlots(ids, signal), [ids.join(',')], { poll, enabled: ids.length > 0 });
  if (!ids.length) return <div class="empty">No experiment to show.</div>;
  if (st.error && st.data === undefined) return <ErrorBox error={st.error} retry={st.reload} />;
  if (st.data === undefined) return <Spinner label="Loading plots…" />;
  if (!st.data.length) return <div class="empty">No plots reported yet.</div>;
  const index = new Map(tasks.map((t, i) => [t.id, i]));
  const names = new Map(tasks.map(t => [t.id, t.name || t.id]));
  const card = (g, it, i) => (
    <div class="card plot-card" key={`${g.metric}\u0000${it.variant}\u0000${it.taskId}\u0000${i}`} data-testid="plot" data-title={g.metric} data-variant={it.variant} data-task-id={it.taskId}>
      <div class="plot-meta">
        {tasks.length > 1 && <span class="swatch" style={{ background: colorAt(index.get(it.taskId) ?? 0) }} />}
        <strong>{tasks.length > 1 ? names.get(it.taskId) : g.metric}</strong>
        <span>{it.variant}</span>
        <span class="muted small">iteration {it.iter}</span>
      </div>
      {it.figure ? <PlotlyFigure figure={it.figure} /> : <div class="empty">This plot could not be read.</div>}
    </div>
  );
  // One experiment: every figure in one responsive grid (a metric's
  // title on its cards), so a screen holds as many as fit. Comparing: a
  // grid per metric, the experiments side by side in it.
  if (tasks.length === 1) {
    return (
      <div class="plots">
        <div class="plot-grid">{st.data.flatMap(g => g.items.map((it, i) => card(g, it, i)))}</div>
      </div>
    );
  }
  return (
    <div class="plots">
      {st.data.map(g => (
        <section class="plot-group" key={g.metric}>
          <h2>{g.metric}</h2>
          <div class="plot-grid">{g.items.map((it, i) => card(g, it, i))}</div>
        </section>
      ))}
    </div>
  );
}

// PlotlyFigure draws one stored figure once it scrolls near the viewport,
// sized by its card.
export function PlotlyFigure({ figure, height = 360 }) {
  const el = useRef(null);
  const [visible, setVisible] = useState(false);
  const [error, setError] = useState(null);

  useEffect(() => {
    const io = new IntersectionObserver(entries => { if (entries.some(e => e.isIntersecting)) { setVisible(true); io.disconnect(); } }, { rootMargin: '300px' });
    io.observe(el.current);
    return () => io.disconnect();
  }, []);

  // Purge once, when the card goes: a new figure (a poll) is drawn over
  // the old one by Plotly.react without a blank frame.
  useEffect(() => {
    const node = el.current;
    return () => { if (window.Plotly) window.Plotly.purge(node); };
  }, []);

  useEffect(() => {
    if (!visible) return undefined;
    const node = el.current;
    let gone = false;
    Promise.all([loadPlotly(), loadUrlPolicy()]).then(([Plotly, policy]) => {
      if (gone) return undefined;
      // Stored figures are drawn only through the URL policy: images off
      // our file server and links in text fields are dropped (safeurl.js).
      const safe = sanitizeFigure(figure, policy);
      const layout = { ...(safe.layout || {}), autosize: true, height };
      delete layout.width;
      layout.margin = { l: 56, r: 24, t: layout.title ? 48 : 20, b: 48, ...(safe.layout?.margin || {}) };
      return Plotly.react(node, Array.isArray(safe.data) ? safe.data : [], layout, PLOTLY_CONFIG);
    }).catch(e => { if (!gone) setError(e); });
    return () => { gone = true; };
  }, [visible, figure, height]);

  if (error) return <ErrorBox error={error} />;
  return <div class="plot-box" ref={el} style={{ height: `${height}px` }} />;
}
