// Scalars of one experiment, or of several overlaid (compare): one uPlot
// chart per metric, one line per variant (and per task). The points are
// the server's histogram samples, so any series length draws at once.

import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { useApi, usePersisted } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { fmtNum } from '../format.js';
import { UPlotChart } from './uplot-chart.jsx';
import { Choice, Toggle } from './controls.jsx';
import { holdPlotlyWhile } from './plotly.js';
import { colorAt, dashAt, withAlpha } from './palette.js';
import { BAND_FROM, X_MODES, align, bucketed, fetchScalars, fetchSingleValues, keyFor, keyRange, positiveOnly, smooth, taskOrigins, xValues } from './scalar-data.js';
import './charts.css';

const POLL_MS = 10000;
const running = tasks => tasks.some(t => t.status === 'in_progress' || t.status === 'queued');

export function ScalarsPanel({ tasks = [], project }) {
  const ids = tasks.map(t => t.id);
  const [savedMode, setXMode] = usePersisted('scalars.x', 'iter');
  const xMode = X_MODES.some(m => m.id === savedMode) ? savedMode : 'iter';
  const [smoothing, setSmoothing] = usePersisted('scalars.smoothing', 0);
  const [logY, setLogY] = usePersisted('scalars.log', false);
  const [filter, setFilter] = useState('');
  const key = keyFor(xMode);
  const poll = running(tasks) ? POLL_MS : 0;
  const scalars = useApi(signal => holdPlotlyWhile(fetchScalars(ids, key, signal)).then(metrics => ({ key, mode: xMode, metrics })), [ids.join(','), key], { poll, enabled: ids.length > 0 });
  const singles = useApi(signal => fetchSingleValues(ids, signal), [ids.join(',')], { poll, enabled: ids.length > 0 });

  if (!ids.length) return <div class="empty">No experiment to show.</div>;
  const metrics = scalars.data?.metrics || [];
  // Until points of a newly chosen axis arrive, the charts keep the axis
  // their points have.
  const shownMode = scalars.data && scalars.data.key !== key ? scalars.data.mode : xMode;
  const shown = filter ? metrics.filter(m => m.metric.toLowerCase().includes(filter.toLowerCase())) : metrics;
  const hasSingles = (singles.data || []).some(t => t.values?.length);

  return (
    <div class="scalars" data-project={project || undefined}>
      <div class="toolbar chart-toolbar">
        <input type="search" placeholder="Filter metrics" value={filter} onInput={e => setFilter(e.currentTarget.value)} data-testid="scalar-filter" />
        <label class="chart-control" title="Exponential moving average of the values">
          Smoothing
          <input type="range" min="0" max="0.99" step="0.01" value={smoothing} onInput={e => setSmoothing(Number(e.currentTarget.value))} data-testid="smoothing" />
          <span class="chart-control-value">{smoothing.toFixed(2)}</span>
        </label>
        <Toggle label="Log scale" checked={logY} onChange={setLogY} testid="log-scale" />
        <Choice label="X axis" value={xMode} options={X_MODES} onChange={setXMode} testid="x-axis" />
        {scalars.loading && scalars.data !== undefined && <span class="spinner-dot" title="Loading" />}
        <span class="spacer" />
        <span class="muted small">Drag to zoom (read again at full resolution), double-click to reset, click a legend entry to hide it.</span>
      </div>
      {hasSingles && <SingleValues tasks={tasks} data={singles.data} />}
      {scalars.error && <ErrorBox error={scalars.error} retry={scalars.reload} />}
      {scalars.data === undefined && !scalars.error && <Spinner label="Loading scalars…" />}
      {scalars.data !== undefined && !metrics.length && !hasSingles && <div class="empty">No scalars reported yet.</div>}
      {scalars.data !== undefined && metrics.length > 0 && !shown.length && <div class="empty">No metric matches “{filter}”.</div>}
      <div class="chart-grid">
        {shown.map(m => <ScalarChart key={m.metric} metric={m} tasks={tasks} all={metrics} xMode={shownMode} dataKey={scalars.data.key} smoothing={smoothing} logY={logY} />)}
      </div>
    </div>
  );
}

// withSeries gives each series of the full metric its data in answer
// (by task and variant; empty when answer lacks it), so the chart keeps
// its shape while a zoomed range or the extremes are read.
function withSeries(metric, answer) {
  if (!answer) return metric.series;
  const got = new Map(answer.series.map(s => [`${s.taskId}\u0000${s.variant}`, s]));
  return metric.series.map(s => got.get(`${s.taskId}\u0000${s.variant}`) || { ...s, x: [], y: [], lo: [], hi: [] });
}

// ScalarChart is one metric's card. A metric with a big series reads its
// buckets' extremes (drawn as a band behind each line); a zoom reads the
// zoomed range again at full resolution, down to the raw points; a
// double-click goes back to the whole series. A metric of small series
// came back as its points: uPlot zooms those itself.
function ScalarChart({ metric, tasks, all, xMode, dataKey, smoothing, logY }) {
  const [hidden, setHidden] = useState({});
  const [zoom, setZoom] = useState(null); // [min, max] of the x axis, or null
  const compare = tasks.length > 1;
  // tasks may be a new array on every render: key the work on its content.
  const taskKey = tasks.map(t => `${t.id}:${t.name}:${t.started || ''}`).join('|');
  const taskIds = useMemo(() => tasks.map(t => t.id), [taskKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const taskIndex = useMemo(() => new Map(tasks.map((t, i) => [t.id, i])), [taskKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const names = useMemo(() => new Map(tasks.map(t => [t.id, t.name || t.id])), [taskKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const origins = useMemo(() => (xMode === 'relative' ? taskOrigins(tasks, all) : null), [taskKey, all, xMode]); // eslint-disable-line react-hooks/exhaustive-deps

  // A series of many samples was bucketed: its extremes are read (the
  // whole series again, and every zoomed range).
  const band = metric.series.some(s => s.x.length >= BAND_FROM);
  const pick = list => list.find(m => m.metric === metric.metric) || { metric: metric.metric, series: [] };
  const full = useApi(signal => fetchScalars(taskIds, dataKey, signal, { metric: metric.metric, extremes: true }).then(pick),
    [metric, dataKey, taskIds], { enabled: band });
  const range = zoom ? keyRange(xMode, zoom[0], zoom[1], taskIds, origins) : null;
  const zoomed = useApi(signal => fetchScalars(taskIds, dataKey, signal, { metric: metric.metric, extremes: true, range }).then(m => ({ zoom, m: pick(m) })),
    [zoom && zoom.join(','), dataKey, taskIds, metric.metric], { enabled: !!zoom });
  const zoomReady = zoom && zoomed.data && zoomed.data.zoom === zoom;
  const answer = zoomReady ? zoomed.data.m : (band ? full.data : undefined);
  const state = zoom ? (zoomReady ? 'zoomed' : 'loading') : (band && !full.data ? 'loading' : 'full');

  const { series, data, bands } = useMemo(() => {
    const shown = withSeries(metric, answer);
    const variants = [...new Set(metric.series.map(s => s.variant))];
    const lines = metric.series.map((s, i) => {
      const label = compare ? `${names.get(s.taskId)} · ${s.variant}` : s.variant;
      const color = compare ? colorAt(taskIndex.get(s.taskId) ?? i) : colorAt(i);
      return { label, color, dash: compare ? dashAt(variants.indexOf(s.variant)) : undefined, show: !hidden[label] };
    });
    const xs = shown.map(s => xValues(s, xMode, origins));
    const ys = shown.map(s => (logY ? positiveOnly(s.y) : s.y));
    let outLines = lines;
    let cols = xs.map((x, i) => ({ x, y: ys[i] }));
    if (smoothing) {
      // Smoothed: the raw values stay behind as faint lines without a legend
      // entry, drawn first so the smoothed lines lie on top.
      const raw = lines.map(l => ({ ...l, label: `${l.label} (raw)`, color: withAlpha(l.color, 0.22), raw: true }));
      const smoothed = lines.map((l, i) => ({ ...l, rawIndex: i }));
      outLines = [...raw, ...smoothed];
      cols = [...cols, ...xs.map((x, i) => ({ x, y: smooth(ys[i], smoothing) }))];
    }
    const bandPairs = [];
    if (band) {
      // Each line's bucket extremes: two legend-less series (largest,
      // smallest) and the band between them, behind the lines.
      const nulls = n => new Array(n).fill(null);
      lines.forEach((l, i) => {
        const s = shown[i];
        const has = bucketed(s);
        const hi = has ? (logY ? positiveOnly(s.hi) : s.hi) : nulls(s.x.length);
        const lo = has ? (logY ? positiveOnly(s.lo) : s.lo) : nulls(s.x.length);
        const at = outLines.length + 1; // uPlot's index (0 is x)
        outLines = [...outLines,
          { label: `${l.label} (max)`, color: withAlpha(l.color, 0.45), raw: true, extreme: 'max', line: i, show: l.show },
          { label: `${l.label} (min)`, color: withAlpha(l.color, 0.45), raw: true, extreme: 'min', line: i, show: l.show }];
        cols = [...cols, { x: xs[i], y: hi }, { x: xs[i], y: lo }];
        bandPairs.push({ series: [at, at + 1], fill: withAlpha(l.color, 0.16) });
      });
    }
    return { series: outLines, data: align(cols), bands: bandPairs };
  }, [metric, answer, xMode, smoothing, logY, origins, compare, names, taskIndex, band]); // eslint-disable-line react-hooks/exhaustive-deps

  const onToggle = (i, show) => { const l = series[i]?.label; if (l) setHidden(h => ({ ...h, [l]: !show })); };
  const onZoom = useCallback((min, max) => setZoom([min, max]), []);
  const zoomNow = useRef(zoom);
  zoomNow.current = zoom;
  // a double-click while zoomed goes back to the whole series
  const onReset = useCallback(() => { if (!zoomNow.current) return false; setZoom(null); return true; }, []);
  const drawn = withSeries(metric, answer);
  const points = drawn.reduce((n, s) => n + s.x.length, 0);
  const banded = drawn.some(bucketed);
  return (
    <div class="card scalar-chart" data-testid="scalar-chart" data-metric={metric.metric} data-zoom={state}
      data-x-min={zoom ? zoom[0] : undefined} data-x-max={zoom ? zoom[1] : undefined}
      role="figure" aria-label={`${metric.metric}: ${series.filter(s => !s.raw).map(s => s.label).join(', ')}`}>
      <div class="chart-head">
        <h3 title={metric.metric}>{metric.metric}</h3>
        {zoom && <button type="button" class="btn btn-ghost btn-small" onClick={() => setZoom(null)} data-action="zoom-reset">Reset zoom</button>}
        <span class="muted small">{metric.series.length} series · {fmtNum(points)} {zoomReady ? 'points zoomed' : 'points'}{banded ? ' · min–max band' : ''}{state === 'loading' ? ' · reading…' : ''}</span>
      </div>
      <UPlotChart data={data} series={series} bands={bands} xMode={xMode} xName={metric.series.find(s => s.xLabel)?.xLabel} logY={logY}
        onToggle={onToggle} xRange={zoom} onZoom={band ? onZoom : undefined} onReset={band ? onReset : undefined} />
    </div>
  );
}

// SingleValues lists the values reported without an iteration.
function SingleValues({ tasks, data }) {
  const byTask = new Map(data.map(t => [t.task, t.values || []]));
  const keys = [];
  const seen = new Set();
  for (const t of data) {
    for (const v of t.values || []) {
      const k = `${v.metric}\u0000${v.variant}`;
      if (!seen.has(k)) { seen.add(k); keys.push([v.metric, v.variant, k]); }
    }
  }
  const value = (taskId, k) => byTask.get(taskId)?.find(v => `${v.metric}\u0000${v.variant}` === k)?.value;
  // Only the experiments that reported single values get a column.
  const cols = tasks.filter(t => byTask.get(t.id)?.length);
  return (
    <div class="card single-values" data-testid="single-values">
      <h3>Summary values</h3>
      <div class="table-wrap">
        <table class="grid">
          <thead>
            <tr><th>Metric</th><th>Variant</th>{cols.map(t => <th key={t.id} class="num">{tasks.length > 1 ? t.name : 'Value'}</th>)}</tr>
          </thead>
          <tbody>
            {keys.map(([m, v, k]) => (
              <tr key={k}><td>{m}</td><td>{v}</td>{cols.map(t => <td key={t.id} class="num">{fmtNum(value(t.id, k))}</td>)}</tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
