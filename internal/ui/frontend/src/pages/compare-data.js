// Data of the compare page: the experiments (tasks.get_all_ex, as the
// ClearML web app reads them) and the rows of their hyper-parameter and
// last-metric diff.

import { call } from '../api.js';

export const MIN_COMPARE = 2;
export const MAX_COMPARE = 50;

const FIELDS = ['id', 'name', 'type', 'status', 'project.name', 'user.name', 'started', 'completed', 'last_update',
  'last_iteration', 'tags', 'hyperparams', 'last_metrics'];

// parseIds reads ?ids=a,b,c: unique, non-empty, in order.
export function parseIds(search) {
  const raw = new URLSearchParams(search || '').get('ids') || '';
  const out = [];
  for (const id of raw.split(',').map(s => s.trim())) if (id && !out.includes(id)) out.push(id);
  return out;
}

export function compareHref(ids) {
  return '/compare?ids=' + ids.map(encodeURIComponent).join(',');
}

// fetchTasks returns the experiments in the order asked, and the ids that
// were not found.
export async function fetchTasks(ids, signal) {
  const d = await call('tasks.get_all_ex', { id: ids, only_fields: FIELDS, search_hidden: true }, { signal });
  const byId = new Map((d?.tasks || []).map(t => [t.id, t]));
  return { tasks: ids.filter(id => byId.has(id)).map(id => byId.get(id)), missing: ids.filter(id => !byId.has(id)) };
}

function paramValue(v) {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'object') return v.value === undefined ? undefined : String(v.value);
  return String(v);
}

// paramRows: one row per hyper-parameter any task has, by section.
export function paramRows(tasks) {
  const keys = new Map();
  for (const t of tasks) {
    for (const [section, params] of Object.entries(t.hyperparams || {})) {
      for (const name of Object.keys(params || {})) {
        const key = `${section}/${name}`;
        if (!keys.has(key)) keys.set(key, { key, group: section, label: name, kind: 'param', section, name });
      }
    }
  }
  return [...keys.values()].sort(byGroupLabel).map(r => ({
    ...r,
    values: tasks.map(t => paramValue(t.hyperparams?.[r.section]?.[r.name])),
  }));
}

export const METRIC_VALUES = [
  { id: 'value', label: 'Last' },
  { id: 'min_value', label: 'Min' },
  { id: 'max_value', label: 'Max' },
];

// metricRows: one row per metric/variant any task reported, with the
// chosen value (last, min or max) of last_metrics.
export function metricRows(tasks, field = 'value') {
  const keys = new Map();
  const found = tasks.map(() => new Map());
  tasks.forEach((t, i) => {
    for (const variants of Object.values(t.last_metrics || {})) {
      for (const m of Object.values(variants || {})) {
        if (!m || m.metric === undefined) continue;
        const key = `${m.metric}/${m.variant}`;
        if (!keys.has(key)) keys.set(key, { key, group: m.metric, label: m.variant, kind: 'metric', metric: m.metric, variant: m.variant });
        found[i].set(key, m[field] ?? m.value);
      }
    }
  });
  return [...keys.values()].sort(byGroupLabel).map(r => ({ ...r, values: found.map(f => f.get(r.key)) }));
}

function byGroupLabel(a, b) {
  return a.group.localeCompare(b.group, undefined, { numeric: true }) || a.label.localeCompare(b.label, undefined, { numeric: true });
}

// differs tells whether a row's values are not all equal (a missing value
// differs from a present one).
export function differs(values) {
  const norm = values.map(v => (v === undefined || v === null ? '\u0000' : String(v)));
  return norm.some(v => v !== norm[0]);
}

// looksNumeric tells whether a value is a number: reported as one, or a
// hyper-parameter's text that reads as a decimal number ("0.1", "-3",
// "1e-4"); anything else ("0.1,0.2", "nan", "", "v2") is text.
export function looksNumeric(v) {
  return typeof v === 'number' || (typeof v === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(v));
}
