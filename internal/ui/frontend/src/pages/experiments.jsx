// The experiments table (/projects/<p>/experiments, /projects/<p>/tasks,
// /projects/<p>, /experiments): one page of tasks at a time from the
// server (tasks.get_all_ex with page/page_size, so 100,000 tasks stay
// instant), sorted and filtered there, with chosen columns, multi-select
// actions, and a poll of the current page so running tasks update live.

import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi, usePersisted } from '../hooks.js';
import { ErrorBox, NotFound, Spinner, isNotFound } from '../components/feedback.jsx';
import { defaultColumns, resolveColumns } from './experiments-columns.jsx';
import { pageQuery } from './experiments-query.jsx';
import { ExperimentsGrid } from './experiments-table.jsx';
import { ColumnChooser } from './experiments-chooser.jsx';
import { FilterBar } from './experiments-filters.jsx';
import { ActionBar } from './experiments-actionbar.jsx';
import { ExperimentsHead, useProjectHead } from './experiments-head.jsx';
import './experiments.css';

const noFilters = { search: '', status: [], type: [], tags: [], user: [] };
const pageSizes = [25, 50, 100, 200];
const isActive = t => t.status === 'in_progress' || t.status === 'queued';

// Each project gets a fresh view (first page, no selection, no filters, no
// rows of the project before).
export function ExperimentsPage({ project }) {
  return <ExperimentsView key={project || '*'} project={project} />;
}

function ExperimentsView({ project }) {
  const scoped = !!project && project !== '*';
  const head = useProjectHead(project);
  const [cols, setCols] = usePersisted('experiments.columns', { keys: defaultColumns, meta: {} });
  const [sort, setSort] = usePersisted('experiments.sort', { key: 'last_update', dir: 'desc' });
  const [size, setSize] = usePersisted('experiments.pageSize', 50);
  const [sub, setSub] = usePersisted('experiments.subprojects', false);
  const [archived, setArchived] = useState(false);
  const [filters, setFilters] = useState(noFilters);
  const [page, setPage] = useState(0);
  const [selected, setSelected] = useState(() => new Map());

  // Across projects, the project column comes along unless chosen already.
  let keys = cols.keys;
  if ((!scoped || sub) && !keys.includes('project')) {
    const at = keys.indexOf('name') + 1;
    keys = [...keys.slice(0, at), 'project', ...keys.slice(at)];
  }
  const columns = useMemo(() => resolveColumns(keys, cols.meta), [keys.join('\n'), cols.meta]);
  const body = pageQuery({ project, sub, archived, filters, sort, page, size, columns });
  const bodyKey = JSON.stringify(body);

  const [poll, setPoll] = useState(10000);
  const rows = useApi(signal => call('tasks.get_all_ex', body, { signal }), [bodyKey], { poll });
  const tasks = rows.data?.tasks;
  useEffect(() => {
    if (!tasks) return;
    setPoll(tasks.some(isActive) ? 4000 : 10000);
    // Keep the selection's snapshot fresh, so actions see current statuses.
    setSelected(sel => {
      if (!sel.size) return sel;
      const next = new Map(sel);
      for (const t of tasks) if (next.has(t.id)) next.set(t.id, t);
      return next;
    });
  }, [tasks]);

  if (scoped && head.error && isNotFound(head.error)) return <NotFound what="project" id={project} />;

  const restart = fn => (...a) => { setPage(0); fn(...a); };
  const setFilter = restart((k, v) => setFilters(f => ({ ...f, [k]: v })));
  const onSort = restart(key => setSort(s => (s?.key === key ? { key, dir: s.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: key === 'name' || key.startsWith('hyperparams.') ? 'asc' : 'desc' })));
  const onColumns = (nextKeys, meta) => {
    setCols(c => ({ keys: nextKeys, meta: meta ? { ...c.meta, ...meta } : c.meta }));
    if (sort && !nextKeys.includes(sort.key) && sort.key !== 'project') setSort({ key: 'last_update', dir: 'desc' });
  };
  const onSelect = t => setSelected(sel => { const n = new Map(sel); n.has(t.id) ? n.delete(t.id) : n.set(t.id, t); return n; });
  const onSelectPage = on => setSelected(sel => {
    const n = new Map(sel);
    for (const t of tasks || []) on ? n.set(t.id, t) : n.delete(t.id);
    return n;
  });
  const afterAction = () => { setSelected(new Map()); rows.reload(); };
  const filtered = filters.search || filters.status.length || filters.type.length || filters.tags.length || filters.user.length;
  const hasNext = (tasks?.length || 0) >= size;

  return (
    <div class="xt-page">
      {head.error && !isNotFound(head.error) && <ErrorBox error={head.error} retry={head.reload} />}
      {scoped && head.data === undefined && !head.error ? <div class="xt-head"><div class="crumbs">Projects</div><h1 class="muted">…</h1></div> : <ExperimentsHead head={head.data} />}

      <div class="toolbar xt-filters">
        <FilterBar project={project} sub={sub} filters={filters} setFilter={setFilter} />
        {scoped && (
          <label class="xt-toggle" title="Also show the experiments of sub-projects">
            <input type="checkbox" data-testid="subprojects" checked={!!sub} onChange={e => { setPage(0); setSub(e.target.checked); }} /> Sub-projects
          </label>
        )}
        <label class="xt-toggle" title="Show archived experiments instead">
          <input type="checkbox" data-testid="archived" checked={archived} onChange={e => { setPage(0); setSelected(new Map()); setArchived(e.target.checked); }} /> Archived
        </label>
        {filtered ? <button type="button" class="btn btn-ghost btn-small" onClick={() => { setPage(0); setFilters(noFilters); }}>Clear filters</button> : null}
        <span class="spacer" />
        <ColumnChooser project={project} sub={sub} keys={cols.keys} onChange={onColumns} />
      </div>

      <ActionBar selected={selected} onDone={afterAction} onClear={() => setSelected(new Map())} />

      {rows.error && tasks === undefined && <ErrorBox error={rows.error} retry={rows.reload} />}
      {rows.error && tasks !== undefined && <ErrorBox error={rows.error} />}
      {tasks === undefined && !rows.error && <Spinner label="Loading experiments…" />}
      {tasks !== undefined && (
        <>
          <ExperimentsGrid tasks={tasks} columns={columns} sort={sort} onSort={onSort} selected={selected}
            onSelect={onSelect} onSelectPage={onSelectPage} project={project} busy={rows.loading} />
          {tasks.length === 0 && (
            <div class="empty" data-testid="empty">
              {page > 0 ? 'No more experiments.'
                : filtered ? 'No experiment matches these filters.'
                  : archived ? 'No archived experiments here.'
                    : <>No experiments here yet.{scoped && !sub && head.data?.children?.length ? <> <button type="button" class="btn btn-small" onClick={() => setSub(true)}>Show sub-projects' experiments</button></> : null}</>}
            </div>
          )}
          <div class="xt-pager">
            <span class="muted small" data-testid="page-range">
              {tasks.length ? `Rows ${page * size + 1}–${page * size + tasks.length}` : ''}
            </span>
            <span class="spacer" />
            <label class="muted small">Rows per page{' '}
              <select value={size} onChange={e => { setPage(0); setSize(Number(e.target.value)); }}>
                {pageSizes.map(n => <option key={n} value={n}>{n}</option>)}
              </select>
            </label>
            <button type="button" class="btn btn-small" data-testid="page-prev" disabled={page === 0} onClick={() => setPage(p => Math.max(0, p - 1))}>‹ Previous</button>
            <span class="small">Page {page + 1}</span>
            <button type="button" class="btn btn-small" data-testid="page-next" disabled={!hasNext} onClick={() => setPage(p => p + 1)}>Next ›</button>
          </div>
        </>
      )}
    </div>
  );
}
