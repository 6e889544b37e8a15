// Worker utilization: which metrics the workers page asks workers.get_stats
// for, and how the answer becomes chart data. Agents report memory in MiB
// and network traffic in MiB/s.

import { call } from '../api.js';
import { fmtBytes, fmtNum } from '../format.js';
import { intervalFor } from './queues-chart.jsx';

const MiB = 1024 * 1024;
const pct = v => `${fmtNum(Math.round(v))}%`;

// charts: one per group; a group's chart shows when any of its series has data.
export const charts = [
  { key: 'usage', title: 'CPU and GPU usage', fmt: pct, series: [{ metric: 'cpu_usage', label: 'CPU' }, { metric: 'gpu_usage', label: 'GPU' }] },
  { key: 'memory', title: 'Memory', fmt: v => fmtBytes(v), series: [{ metric: 'memory_used', label: 'RAM used', scale: MiB }, { metric: 'gpu_memory_used', label: 'GPU memory used', scale: MiB }] },
  { key: 'network', title: 'Network', fmt: v => `${fmtBytes(v)}/s`, series: [{ metric: 'network_rx', label: 'Receive', scale: MiB }, { metric: 'network_tx', label: 'Transmit', scale: MiB }] },
];

const metrics = charts.flatMap(c => c.series.map(s => s.metric));

// loadStats asks for the average of every metric over range (seconds), for all workers at once.
export function loadStats(range, workerIds) {
  const now = Math.floor(Date.now() / 1000);
  return call('workers.get_stats', {
    from_date: now - range,
    to_date: now,
    interval: intervalFor(range, 120, 10),
    worker_ids: workerIds,
    items: metrics.map(key => ({ key, aggregation: 'avg' })),
  });
}

const toSeconds = d => (d > 1e11 ? d / 1000 : d);

// chartsFor gives a worker's charts as [{chart, data, series}], leaving out
// groups it reported nothing for.
export function chartsFor(stats, workerId) {
  const w = (stats?.workers || []).find(x => x.worker === workerId);
  if (!w) return [];
  const byMetric = new Map(w.metrics.map(m => [m.metric, m]));
  const out = [];
  for (const c of charts) {
    const present = c.series.filter(s => {
      const m = byMetric.get(s.metric);
      return m && (m.stats?.[0]?.values || []).some(v => v);
    });
    if (!present.length) continue;
    const xs = byMetric.get(present[0].metric).dates.map(toSeconds);
    const ys = present.map(s => {
      const m = byMetric.get(s.metric);
      const at = new Map(m.dates.map((d, i) => [toSeconds(d), m.stats[0].values[i]]));
      return xs.map(x => (at.has(x) ? at.get(x) * (s.scale || 1) : null));
    });
    out.push({ chart: c, data: [xs, ...ys], series: present.map(s => ({ label: s.label })) });
  }
  return out;
}
