// The experiments table's columns: the fixed ones, and the hyper-parameter
// and last-metric columns discovered from the project. Each column knows
// the only_fields it needs, the order_by it sorts with, and how it renders,
// so the table asks the server for exactly what it shows.

import { Link } from '../router.jsx';
import { StatusBadge } from '../components/status.jsx';
import { fmtAgo, fmtDate, fmtNum } from '../format.js';

// taskHref is the experiment page of a task, under its own project.
export function taskHref(task, project) {
  const p = task.project?.id || (project && project !== '*' ? project : '*');
  return `/projects/${encodeURIComponent(p)}/experiments/${encodeURIComponent(task.id)}`;
}

function Time({ v }) {
  return v ? <span title={fmtDate(v)}>{fmtAgo(v)}</span> : <span class="muted">—</span>;
}

const base = [
  { key: 'status', label: 'Status', fields: ['status'], order: 'status', render: t => <StatusBadge status={t.status} /> },
  { key: 'type', label: 'Type', fields: ['type'], order: 'type', render: t => t.type },
  {
    key: 'name', label: 'Name', fields: ['name', 'project.name'], order: 'name', fixed: true,
    render: (t, ctx) => <Link href={taskHref(t, ctx.project)} class="xt-name" title={t.name}>{t.name || t.id}</Link>,
  },
  { key: 'project', label: 'Project', fields: ['project.name'], order: 'project.name', render: t => t.project?.name || '' },
  { key: 'tags', label: 'Tags', fields: ['tags'], order: 'tags', render: t => (t.tags || []).map(g => <span class="tag" key={g}>{g}</span>) },
  { key: 'user', label: 'User', fields: ['user.name'], order: 'user.name', render: t => t.user?.name || t.user?.id || '' },
  { key: 'started', label: 'Started', fields: ['started'], order: 'started', render: t => <Time v={t.started} /> },
  { key: 'last_update', label: 'Updated', fields: ['last_update'], order: 'last_update', render: t => <Time v={t.last_update} /> },
  { key: 'last_iteration', label: 'Iterations', fields: ['last_iteration'], order: 'last_iteration', num: true, render: t => fmtNum(t.last_iteration) },
];

export const baseColumns = base;
export const defaultColumns = ['status', 'type', 'name', 'tags', 'user', 'started', 'last_update', 'last_iteration'];

export function paramKey(section, name) { return `hyperparams.${section}.${name}`; }
export function metricKey(title, series) { return `metric.${title}.${series}`; }

// paramColumn is a hyper-parameter column; values are strings on the wire.
export function paramColumn({ section, name }) {
  return {
    key: paramKey(section, name), label: `${section}/${name}`, group: 'param', meta: { section, name },
    fields: [`hyperparams.${section}.${name}.value`], order: `hyperparams.${section}.${name}.value`,
    render: t => t.hyperparams?.[section]?.[name]?.value ?? '',
  };
}

// metricColumn is a last metric value column; the wire keys last_metrics by
// the MD5 hashes of the title and series, which discovery gives us.
export function metricColumn({ metric, variant, metric_hash, variant_hash }) {
  const path = `last_metrics.${metric_hash}.${variant_hash}.value`;
  return {
    key: metricKey(metric, variant), label: `${metric} › ${variant}`, group: 'metric', num: true,
    meta: { metric, variant, metric_hash, variant_hash },
    fields: [path], order: path,
    render: t => fmtNum(t.last_metrics?.[metric_hash]?.[variant_hash]?.value),
  };
}

// resolveColumns turns the chosen keys into column objects. Dynamic
// columns come from their remembered meta, so a persisted choice works
// before discovery has answered.
export function resolveColumns(keys, meta) {
  const out = [];
  for (const k of keys) {
    const b = base.find(c => c.key === k);
    if (b) { out.push(b); continue; }
    const m = meta[k];
    if (m && k.startsWith('hyperparams.')) out.push(paramColumn(m));
    else if (m && k.startsWith('metric.')) out.push(metricColumn(m));
  }
  if (!out.some(c => c.key === 'name')) out.unshift(base.find(c => c.key === 'name'));
  return out;
}
