// Parallel coordinates of the compare page: chosen hyper-parameters as
// axes, a chosen metric as the last axis and the line colour, one line per
// experiment (plotly's parcoords trace).

import { useMemo } from 'preact/hooks';
import { usePersisted } from '../hooks.js';
import { PlotlyFigure } from '../charts/plots.jsx';
import { Choice } from '../charts/controls.jsx';
import { METRIC_VALUES, differs, metricRows, paramRows } from './compare-data.js';

const MAX_DEFAULT_AXES = 6;

// axis builds one parcoords dimension: numeric when every value is a
// number, otherwise categories in first-seen order.
export function axis(label, values) {
  const nums = values.map(v => (v === undefined || v === null || v === '' ? NaN : Number(v)));
  const numeric = values.every((v, i) => v === undefined || v === null || v === '' || isFinite(nums[i]));
  if (numeric && nums.some(n => isFinite(n))) {
    return { label, values: nums.map(n => (isFinite(n) ? n : null)) };
  }
  const cats = [];
  for (const v of values) { const s = v === undefined || v === null ? '(none)' : String(v); if (!cats.includes(s)) cats.push(s); }
  return {
    label,
    values: values.map(v => cats.indexOf(v === undefined || v === null ? '(none)' : String(v))),
    tickvals: cats.map((_, i) => i),
    ticktext: cats.map(c => (c.length > 18 ? c.slice(0, 17) + '…' : c)),
    range: [0, Math.max(1, cats.length - 1)],
  };
}

export function ParallelCoords({ tasks }) {
  const params = useMemo(() => paramRows(tasks), [tasks]);
  const [field, setField] = usePersisted('compare.parcoords.value', 'value');
  const metrics = useMemo(() => metricRows(tasks, field), [tasks, field]);
  const defaults = useMemo(() => {
    const diff = params.filter(r => differs(r.values)).map(r => r.key);
    return (diff.length ? diff : params.map(r => r.key)).slice(0, MAX_DEFAULT_AXES);
  }, [params]);
  const [chosen, setChosen] = usePersisted('compare.parcoords.params', null);
  const [metricKey, setMetricKey] = usePersisted('compare.parcoords.metric', null);
  const selected = (chosen || defaults).filter(k => params.some(r => r.key === k));
  const metric = metrics.find(r => r.key === metricKey) || metrics.find(r => r.values.filter(v => typeof v === 'number').length > 1) || metrics[0];

  const figure = useMemo(() => {
    const dims = [axis('experiment', tasks.map(t => t.name))];
    const rows = selected.map(k => params.find(p => p.key === k));
    // A parameter's name alone labels its axis unless two sections share it.
    const label = r => (rows.filter(o => o.name === r.name).length > 1 ? r.key : r.name);
    for (const r of rows) dims.push(axis(label(r), r.values));
    const line = { color: '#1f6feb' };
    if (metric) {
      const m = axis(`${metric.metric} / ${metric.variant}`, metric.values);
      dims.push(m);
      if (!m.tickvals) {
        line.color = m.values.map(v => (v === null ? 0 : v));
        line.colorscale = 'Viridis';
        line.showscale = true;
        line.colorbar = { title: { text: metric.variant, side: 'right' }, thickness: 12 };
      }
    }
    return { data: [{ type: 'parcoords', line, dimensions: dims, labelangle: 0, labelside: 'top' }], layout: { margin: { l: 90, r: 70, t: 70, b: 30 } } };
  }, [tasks, params, selected.join('\u0000'), metric]); // eslint-disable-line react-hooks/exhaustive-deps

  const toggle = k => setChosen(selected.includes(k) ? selected.filter(x => x !== k) : [...selected, k]);
  return (
    <div class="parcoords">
      <div class="toolbar">
        <label class="chart-control">
          Metric
          <select value={metric?.key || ''} onChange={e => setMetricKey(e.currentTarget.value)} data-testid="parcoords-metric">
            {!metrics.length && <option value="">(no metrics)</option>}
            {metrics.map(r => <option key={r.key} value={r.key}>{r.metric} / {r.variant}</option>)}
          </select>
        </label>
        <Choice label="Value" value={field} options={METRIC_VALUES} onChange={setField} testid="parcoords-value" />
        <details class="param-chooser">
          <summary class="btn btn-small">Hyper-parameters ({selected.length})</summary>
          <div class="param-chooser-list">
            {!params.length && <div class="muted">No hyper-parameters reported.</div>}
            {params.map(r => (
              <label key={r.key}><input type="checkbox" checked={selected.includes(r.key)} onChange={() => toggle(r.key)} data-param={r.key} /> {r.key}</label>
            ))}
          </div>
        </details>
      </div>
      <div class="card" data-testid="parallel-coords" data-metric={metric ? `${metric.metric}/${metric.variant}` : ''}>
        <PlotlyFigure figure={figure} height={420} />
      </div>
    </div>
  );
}
