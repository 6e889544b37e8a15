// Scalars for the charts: read the histograms the server samples (a
// 1,000,000-point series comes back as at most `samples` bucket means, with
// each bucket's extremes when asked; a zoomed range is read again, down to
// its raw points), then shape them into uPlot's aligned columns.

import { call } from '../api.js';

// X axis modes and the histogram key each one asks for. Wall and relative
// time both read "timestamp" (epoch milliseconds): relative time is the
// same points measured from the task's start.
export const X_MODES = [
  { id: 'iter', label: 'Iterations', key: 'iter' },
  { id: 'wall', label: 'Wall time', key: 'timestamp' },
  { id: 'relative', label: 'Relative time', key: 'timestamp' },
];
export const keyFor = mode => (X_MODES.find(m => m.id === mode) || X_MODES[0]).key;

// fetchScalars returns [{metric, series: [{taskId, variant, x, y, lo, hi}]}]
// ordered by metric, for one task (scalar_metrics_iter_histogram) or
// several (multi_task_scalar_metrics_iter_histogram), as the ClearML web
// app asks for them. opts (Trove's additions, docs/ui.md "Zoom and
// downsampling"): metric reads that metric only; extremes asks for each
// bucket's smallest and largest value (lo, hi); range [min, max] reads only
// those keys, sampled again at full resolution.
export async function fetchScalars(taskIds, key, signal, opts = {}) {
  const byMetric = new Map();
  const add = (metric, variant, taskId, c) => {
    if (!c || !Array.isArray(c.x) || !c.x.length) return;
    if (!byMetric.has(metric)) byMetric.set(metric, []);
    byMetric.get(metric).push({ taskId, variant, x: c.x, y: c.y, lo: c.y_min, hi: c.y_max, xLabel: c.x_axis_label || undefined });
  };
  const extra = {};
  if (opts.metric !== undefined) extra.metrics = [{ metric: opts.metric }];
  if (opts.extremes) extra.extremes = true;
  if (opts.range) { extra.x_min = Math.floor(opts.range[0]); extra.x_max = Math.ceil(opts.range[1]); }
  if (taskIds.length === 1) {
    const d = await call('events.scalar_metrics_iter_histogram', { task: taskIds[0], key, ...extra }, { signal });
    for (const [metric, variants] of Object.entries(d || {})) {
      for (const [variant, c] of Object.entries(variants || {})) add(metric, variant, taskIds[0], c);
    }
  } else {
    const d = await call('events.multi_task_scalar_metrics_iter_histogram', { tasks: taskIds, key, model_events: false, ...extra }, { signal });
    for (const [metric, variants] of Object.entries(d?.metrics || {})) {
      for (const [variant, byTask] of Object.entries(variants || {})) {
        for (const id of taskIds) add(metric, variant, id, byTask?.[id]);
      }
    }
  }
  return [...byMetric.entries()]
    .sort(([a], [b]) => a.localeCompare(b, undefined, { numeric: true }))
    .map(([metric, series]) => ({ metric, series: series.sort((a, b) => a.variant.localeCompare(b.variant, undefined, { numeric: true })) }));
}

// BAND_FROM: a metric with a series of at least this many samples gets
// its buckets' extremes drawn as a band (a series of fewer comes back as
// its points, which uPlot draws exactly).
export const BAND_FROM = 1000;

// bucketed tells whether a series came back in buckets holding more than
// one point (some bucket's extremes differ).
export function bucketed(s) {
  if (!s.lo || !s.hi) return false;
  for (let i = 0; i < s.lo.length; i++) if (s.lo[i] !== s.hi[i]) return true;
  return false;
}

// keyRange turns a zoomed x range of the chart into the histogram keys
// to read: iterations as they are, wall time from seconds to ms, relative
// time from each task's origin (the union over the tasks).
export function keyRange(mode, min, max, taskIds, origins) {
  if (mode === 'iter') return [Math.floor(min), Math.ceil(max)];
  if (mode === 'wall') return [Math.floor(min * 1000), Math.ceil(max * 1000)];
  let lo = Infinity, hi = -Infinity;
  for (const id of taskIds) {
    const o = origins?.get(id) || 0;
    lo = Math.min(lo, min * 1000 + o);
    hi = Math.max(hi, max * 1000 + o);
  }
  return [Math.floor(lo), Math.ceil(hi)];
}

// fetchSingleValues returns the values reported without iteration
// (Logger.report_single_value) per task: [{task, values: [{metric, variant, value}]}].
export async function fetchSingleValues(taskIds, signal) {
  const d = await call('events.get_task_single_value_metrics', { tasks: taskIds }, { signal });
  return d?.tasks || [];
}

// taskOrigins gives each task's time origin for relative time: the
// earliest of its start and its first reported point (ms).
export function taskOrigins(tasks, metrics) {
  const out = new Map();
  for (const t of tasks) {
    const s = t.started ? Date.parse(t.started) : NaN;
    if (!isNaN(s)) out.set(t.id, s);
  }
  for (const m of metrics) {
    for (const s of m.series) {
      const first = s.x[0];
      if (typeof first === 'number' && !(out.get(s.taskId) <= first)) out.set(s.taskId, first);
    }
  }
  return out;
}

// xValues maps one series' histogram keys to the chart's x: iterations as
// they are, wall time in epoch seconds (uPlot's time unit), relative time
// in seconds since the task's origin.
export function xValues(s, mode, origins) {
  if (mode === 'iter') return s.x;
  const o = mode === 'relative' ? (origins.get(s.taskId) || 0) : 0;
  const out = new Float64Array(s.x.length);
  for (let i = 0; i < s.x.length; i++) out[i] = (s.x[i] - o) / 1000;
  return out;
}

// smooth is the debiased exponential moving average (weight 0 leaves the
// values as they are); null values stay gaps.
export function smooth(y, weight) {
  if (!weight) return y;
  const out = new Array(y.length);
  let last = 0, n = 0;
  for (let i = 0; i < y.length; i++) {
    const v = y[i];
    if (v === null || v === undefined || !isFinite(v)) { out[i] = null; continue; }
    last = last * weight + (1 - weight) * v;
    n++;
    out[i] = last / (1 - Math.pow(weight, n));
  }
  return out;
}

// positiveOnly drops values a log scale cannot show.
export function positiveOnly(y) {
  const out = new Array(y.length);
  for (let i = 0; i < y.length; i++) out[i] = y[i] > 0 ? y[i] : null;
  return out;
}

function sameX(a, b) {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// align turns series with their own x into uPlot's columns [x, y1, y2, ...]
// on the union of their x values. Series sharing one x (the usual case:
// the variants of one task) are passed through untouched.
export function align(list) {
  if (!list.length) return [[]];
  if (list.every(s => sameX(s.x, list[0].x))) return [list[0].x, ...list.map(s => s.y)];
  let total = 0;
  for (const s of list) total += s.x.length;
  const all = new Float64Array(total);
  let k = 0;
  for (const s of list) for (let i = 0; i < s.x.length; i++) all[k++] = s.x[i];
  all.sort();
  let n = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[n - 1]) all[n++] = all[i];
  const xs = all.slice(0, n);
  const cols = [xs];
  for (const s of list) {
    const ys = new Array(n).fill(null);
    let j = 0;
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i];
      while (xs[j] < x) j++;
      ys[j] = s.y[i];
    }
    cols.push(ys);
  }
  return cols;
}
