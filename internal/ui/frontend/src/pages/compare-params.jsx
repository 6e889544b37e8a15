// The diff table of the compare page: hyper-parameters and last metrics of
// every experiment side by side, rows whose values differ highlighted,
// optionally only those.

import { useMemo, useState } from 'preact/hooks';
import { usePersisted } from '../hooks.js';
import { fmtNum } from '../format.js';
import { colorAt } from '../charts/palette.js';
import { Choice, Toggle } from '../charts/controls.jsx';
import { METRIC_VALUES, differs, looksNumeric, metricRows, paramRows } from './compare-data.js';

// Each value is aligned by its own kind (looksNumeric): numbers right,
// text left.
function Cell({ v }) {
  if (v === undefined || v === null) return <td class="cmp-missing" data-kind="missing">–</td>;
  if (typeof v === 'number') return <td class="num" data-kind="number" title={String(v)}>{fmtNum(v)}</td>;
  if (looksNumeric(v)) return <td class="num" data-kind="number" title={v}>{v.trim()}</td>;
  return <td class="text" data-kind="text" title={v}>{v === '' ? <span class="muted">(empty)</span> : v}</td>;
}

function Section({ title, rows, tasks, onlyDiffs, filter }) {
  const q = filter.toLowerCase();
  const shown = rows.filter(r => (!onlyDiffs || r.diff) && (!q || r.key.toLowerCase().includes(q)));
  let group = null;
  const body = [];
  for (const r of shown) {
    if (r.group !== group) {
      group = r.group;
      body.push(<tr key={`g:${r.group}`} class="cmp-group"><th colSpan={tasks.length + 1}>{r.group}</th></tr>);
    }
    body.push(
      <tr key={r.key} class={r.diff ? 'cmp-diff' : ''} data-key={r.key} data-diff={r.diff ? 'true' : 'false'}>
        <td class="cmp-name" title={r.key}>{r.label}</td>
        {r.values.map((v, i) => <Cell key={tasks[i].id} v={v} />)}
      </tr>,
    );
  }
  return (
    <>
      <tr class="cmp-section"><th colSpan={tasks.length + 1}>{title} <span class="muted small">({shown.length} of {rows.length})</span></th></tr>
      {body.length ? body : <tr><td colSpan={tasks.length + 1} class="empty">{rows.length ? 'No row matches.' : 'None reported.'}</td></tr>}
    </>
  );
}

export function CompareParams({ tasks }) {
  const [onlyDiffs, setOnlyDiffs] = usePersisted('compare.onlyDiffs', false);
  const [metricField, setMetricField] = usePersisted('compare.metricValue', 'value');
  const [filter, setFilter] = useState('');
  const params = useMemo(() => paramRows(tasks).map(r => ({ ...r, diff: differs(r.values) })), [tasks]);
  const metrics = useMemo(() => metricRows(tasks, metricField).map(r => ({ ...r, diff: differs(r.values) })), [tasks, metricField]);
  const diffCount = params.filter(r => r.diff).length + metrics.filter(r => r.diff).length;

  return (
    <div data-testid="compare-params">
      <div class="toolbar">
        <input type="search" placeholder="Filter rows" value={filter} onInput={e => setFilter(e.currentTarget.value)} data-testid="compare-params-filter" />
        <Toggle label="Only differences" checked={onlyDiffs} onChange={setOnlyDiffs} testid="only-differences" />
        <Choice label="Metric value" value={metricField} options={METRIC_VALUES} onChange={setMetricField} testid="metric-value" />
        <span class="spacer" />
        <span class="muted small">{diffCount} differing row{diffCount === 1 ? '' : 's'}</span>
      </div>
      <div class="table-wrap cmp-table-wrap">
        <table class="grid cmp-table">
          <thead>
            <tr>
              <th class="cmp-name">Name</th>
              {tasks.map((t, i) => <th key={t.id} title={t.name}><span class="swatch" style={{ background: colorAt(i) }} /> {t.name}</th>)}
            </tr>
          </thead>
          <tbody>
            <Section title="Hyper-parameters" rows={params} tasks={tasks} onlyDiffs={onlyDiffs} filter={filter} />
            <Section title="Metrics" rows={metrics} tasks={tasks} onlyDiffs={onlyDiffs} filter={filter} />
          </tbody>
        </table>
      </div>
    </div>
  );
}
