// The column chooser: the fixed columns plus every hyper-parameter and
// metric the project's tasks report, discovered when the chooser opens
// (projects.get_hyper_parameters, projects.get_unique_metric_variants).

import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { Popover } from '../components/table-menu.jsx';
import { baseColumns, metricKey, paramKey } from './experiments-columns.jsx';

async function discover(project, sub) {
  const scope = project && project !== '*';
  const [hp, mv] = await Promise.all([
    call('projects.get_hyper_parameters', { project: scope ? project : undefined, include_subprojects: scope ? !!sub : true, page: 0, page_size: 500 }),
    call('projects.get_unique_metric_variants', { project: scope ? project : null, include_subprojects: scope ? !!sub : true }),
  ]);
  return {
    params: (hp.parameters || []).map(p => ({ key: paramKey(p.section, p.name), label: `${p.section}/${p.name}`, meta: { section: p.section, name: p.name } })),
    metrics: (mv.metrics || []).filter(m => m.metric && m.variant).map(m => ({ key: metricKey(m.metric, m.variant), label: `${m.metric} › ${m.variant}`, meta: m })),
  };
}

// ColumnChooser shows checkboxes for every column; keys is the chosen
// list, meta remembers what a dynamic key means (see resolveColumns).
export function ColumnChooser({ project, sub, keys, onChange }) {
  const [found, setFound] = useState(null);
  const [error, setError] = useState(null);
  const [text, setText] = useState('');
  const load = () => { setError(null); discover(project, sub).then(setFound).catch(setError); };
  const chosen = new Set(keys);
  const flip = (key, meta) => {
    if (chosen.has(key)) onChange(keys.filter(k => k !== key), null);
    else onChange([...keys, key], meta ? { [key]: meta } : null);
  };
  const match = it => !text || it.label.toLowerCase().includes(text.toLowerCase());
  const item = (it, meta) => (
    <label key={it.key} class="tm-item">
      <input type="checkbox" checked={chosen.has(it.key)} disabled={it.key === 'name'} onChange={() => flip(it.key, meta)} data-col-choice={it.key} /> {it.label}
    </label>
  );
  return (
    <Popover label="Columns" testid="columns" align="right" onOpen={load}>
      <div class="tm-list tm-wide">
        <input type="search" class="tm-search" placeholder="Find a column…" value={text} onInput={e => setText(e.target.value)} />
        <div class="tm-group">Fields</div>
        {baseColumns.filter(match).map(c => item(c))}
        {error && <div class="tm-empty">{error.message}</div>}
        {!found && !error && <div class="tm-empty">Finding parameters and metrics…</div>}
        {found && (
          <>
            <div class="tm-group">Hyper-parameters</div>
            {found.params.length ? found.params.filter(match).map(p => item(p, p.meta)) : <div class="tm-empty">None reported</div>}
            <div class="tm-group">Metrics (last value)</div>
            {found.metrics.length ? found.metrics.filter(match).map(m => item(m, m.meta)) : <div class="tm-empty">None reported</div>}
          </>
        )}
      </div>
    </Popover>
  );
}
