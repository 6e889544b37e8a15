// Scalars of one experiment, or of several overlaid (compare): one uPlot
// chart per metric, one line per variant (and per task). The points are
// the server's histogram samples, so any series length draws at once.

import { useMemo, useState } from 'preact/hooks';
import { useApi, usePersisted } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { fmtNum } from '../format.js';
import { UPlotChart } from './uplot-chart.jsx';
import { Choice, Toggle } from './controls.jsx';
import { holdPlotlyWhile } from './plotly.js';
import { colorAt, dashAt, withAlpha } from './palette.js';
import { X_MODES, align, fetchScalars, fetchSingleValues, keyFor, positiveOnly, smooth, taskOrigins, xValues } from './scalar-data.js';
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
        <span class="muted small">Drag to zoom, double-click to reset, click a legend entry to hide it.</span>
      </div>
      {hasSingles && <SingleValues tasks={tasks} data={singles.data} />}
      {scalars.error && <ErrorBox error={scalars.error} retry={scalars.reload} />}
      {scalars.data === undefined && !scalars.error && <Spinner label="Loading scalars…" />}
      {scalars.data !== undefined && !metrics.length && !hasSingles && <div class="empty">No scalars reported yet.</div>}
      {scalars.data !== undefined && metrics.length > 0 && !shown.length && <div class="empty">No metric matches “{filter}”.</div>}
      <div class="chart-grid">
        {shown.map(m => <ScalarChart key={m.metric} metric={m} tasks={tasks} all={metrics} xMode={shownMode} smoothing={smoothing} logY={logY} />)}
      </div>
    </div>
  );
}

// ScalarChart is one metric's card.
function ScalarChart({ metric, tasks, all, xMode, smoothing, logY }) {
  const [hidden, setHidden] = useState({});
  const compare = tasks.length > 1;
  // tasks may be a new array on every render: key the work on its content.
  const taskKey = tasks.map(t => `${t.id}:${t.name}:${t.started || ''}`).join('|');
  const taskIndex = useMemo(() => new Map(tasks.map((t, i) => [t.id, i])), [taskKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const names = useMemo(() => new Map(tasks.map(t => [t.id, t.name || t.id])), [taskKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const origins = useMemo(() => (xMode === 'relative' ? taskOrigins(tasks, all) : null), [taskKey, all, xMode]); // eslint-disable-line react-hooks/exhaustive-deps

  const { series, data } = useMemo(() => {
    const variants = [...new Set(metric.series.map(s => s.variant))];
    const lines = metric.series.map((s, i) => {
      const label = compare ? `${names.get(s.taskId)} · ${s.variant}` : s.variant;
      const color = compare ? colorAt(taskIndex.get(s.taskId) ?? i) : colorAt(i);
      return { label, color, dash: compare ? dashAt(variants.indexOf(s.variant)) : undefined, show: !hidden[label] };
    });
    const xs = metric.series.map(s => xValues(s, xMode, origins));
    const ys = metric.series.map(s => (logY ? positiveOnly(s.y) : s.y));
    if (!smoothing) return { series: lines, data: align(xs.map((x, i) => ({ x, y: ys[i] }))) };
    // Smoothed: the raw values stay behind as faint lines without a legend
    // entry, drawn first so the smoothed lines lie on top.
    const raw = lines.map(l => ({ ...l, label: `${l.label} (raw)`, color: withAlpha(l.color, 0.22), raw: true }));
    const smoothed = lines.map((l, i) => ({ ...l, rawIndex: i }));
    const cols = [
      ...xs.map((x, i) => ({ x, y: ys[i] })),
      ...xs.map((x, i) => ({ x, y: smooth(ys[i], smoothing) })),
    ];
    return { series: [...raw, ...smoothed], data: align(cols) };
  }, [metric, xMode, smoothing, logY, origins, compare, names, taskIndex]); // eslint-disable-line react-hooks/exhaustive-deps

  const onToggle = (i, show) => { const l = series[i]?.label; if (l) setHidden(h => ({ ...h, [l]: !show })); };
  const points = metric.series.reduce((n, s) => n + s.x.length, 0);
  return (
    <div class="card scalar-chart" data-testid="scalar-chart" data-metric={metric.metric} role="figure" aria-label={`${metric.metric}: ${series.filter(s => !s.raw).map(s => s.label).join(', ')}`}>
      <div class="chart-head">
        <h3 title={metric.metric}>{metric.metric}</h3>
        <span class="muted small">{metric.series.length} series · {fmtNum(points)} points</span>
      </div>
      <UPlotChart data={data} series={series} xMode={xMode} xName={metric.series.find(s => s.xLabel)?.xLabel} logY={logY} onToggle={onToggle} />
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
