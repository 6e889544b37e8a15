// The models table, of one project (/projects/<p>/models) or of all
// (/models): paged, sorted and searched in the server with
// models.get_all_ex, as the ClearML web app does, with bulk actions.

import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Link } from '../router.jsx';
import { ErrorBox, NotFound, Spinner, isNotFound } from '../components/feedback.jsx';
import { fmtAgo, fmtDate } from '../format.js';
import { modelActions } from './models-actions.js';
import { ModelStatus, modelHref } from './model-parts.jsx';
import './models.css';

const PAGE_SIZE = 25;

// columns: key is the data-col name and the server's sort field.
const columns = [
  { key: 'name', label: 'Name', cell: m => <Link href={modelHref(m)} class="model-link">{m.name || m.id}</Link> },
  { key: 'framework', label: 'Framework', cell: m => m.framework || <span class="muted">–</span> },
  { key: 'tags', label: 'Tags', sort: false, cell: m => (m.tags || []).map(t => <span class="tag" key={t}>{t}</span>) },
  { key: 'ready', label: 'Status', cell: m => <ModelStatus model={m} /> },
  { key: 'user.name', label: 'User', cell: m => m.user?.name || m.user?.id || '' },
  { key: 'created', label: 'Created', cell: m => <span title={fmtDate(m.created)}>{fmtAgo(m.created)}</span> },
  { key: 'last_update', label: 'Updated', cell: m => <span title={fmtDate(m.last_update)}>{fmtAgo(m.last_update)}</span> },
  { key: 'project.name', label: 'Project', cell: m => m.project?.id ? <Link href={`/projects/${m.project.id}/models`}>{m.project.name || m.project.id}</Link> : '' },
];

const onlyFields = ['created', 'last_change', 'last_update', 'framework', 'id', 'labels', 'name', 'ready', 'tags',
  'system_tags', 'task.name', 'uri', 'user.name', 'comment', 'project.name'];

const escapeRegex = s => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function listBody({ project, page, sort, q, archived }) {
  const body = {
    page,
    page_size: PAGE_SIZE,
    order_by: [(sort.order < 0 ? '-' : '') + sort.field],
    system_tags: [archived ? 'archived' : '-archived'],
    only_fields: onlyFields,
  };
  if (project) {
    body.project = [project];
    body.include_subprojects = false;
  }
  if (q) body._any_ = { pattern: escapeRegex(q), fields: ['id', 'name', 'comment', 'framework'] };
  return body;
}

export function ModelsPage({ project: projectParam }) {
  const project = projectParam && projectParam !== '*' ? projectParam : null;
  const [page, setPage] = useState(0);
  const [sort, setSort] = useState({ field: 'created', order: -1 });
  const [q, setQ] = useState('');
  const [typed, setTyped] = useState('');
  const [archived, setArchived] = useState(false);
  const [selected, setSelected] = useState(new Set());

  // Typing settles before a search goes to the server.
  useEffect(() => {
    const t = setTimeout(() => { setQ(typed.trim()); setPage(0); }, 300);
    return () => clearTimeout(t);
  }, [typed]);
  useEffect(() => { setPage(0); setSelected(new Set()); }, [project, archived]);

  const proj = useApi(() => (project ? call('projects.get_by_id', { project }) : Promise.resolve(null)), [project]);
  const list = useApi(() => call('models.get_all_ex', listBody({ project, page, sort, q, archived })),
    [project, page, sort.field, sort.order, q, archived]);

  if (project && proj.error && isNotFound(proj.error)) return <NotFound what="project" id={project} />;

  const models = list.data?.models;
  const toggleSort = key => {
    setSort(s => (s.field === key ? { field: key, order: -s.order } : { field: key, order: key === 'name' ? 1 : -1 }));
    setPage(0);
  };
  const ids = [...selected];
  const act = async key => {
    const r = await modelActions[key].run(ids);
    if (r !== undefined) { setSelected(new Set()); list.reload(); }
  };
  const allOnPage = models?.length > 0 && models.every(m => selected.has(m.id));
  const toggleAll = () => setSelected(allOnPage ? new Set() : new Set(models.map(m => m.id)));
  const toggle = id => setSelected(s => { const n = new Set(s); if (n.has(id)) n.delete(id); else n.add(id); return n; });

  return (
    <div class="models-page">
      <div class="crumbs">
        {project ? <><Link href="/projects">Projects</Link> / <Link href={`/projects/${project}/experiments`}>{proj.data?.project?.name || project}</Link></> : 'All projects'}
      </div>
      <div class="page-head">
        <h1>Models</h1>
        {project && <Link class="btn btn-small" href={`/projects/${project}/experiments`}>Experiments</Link>}
        <span class="spacer" />
        <input type="search" placeholder="Search models" value={typed} onInput={e => setTyped(e.target.value)}
          data-testid="models-search" aria-label="Search models" />
        <label class="models-archived"><input type="checkbox" checked={archived} onChange={e => setArchived(e.target.checked)} data-testid="show-archived" /> Archived</label>
      </div>
      <div class="toolbar">
        <span class="muted small">{ids.length ? `${ids.length} selected` : 'Select models to act on them'}</span>
        {Object.entries(modelActions).filter(([, a]) => a.when({ archived })).map(([key, a]) => (
          <button key={key} class={a.danger ? 'btn btn-small models-danger' : 'btn btn-small'} data-action={key}
            disabled={!ids.length} onClick={() => act(key)}>{a.label}</button>
        ))}
      </div>
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      {models === undefined && !list.error && <Spinner />}
      {models !== undefined && (
        <div class="table-wrap">
          <table class="grid" data-testid="models">
            <thead>
              <tr>
                <th class="models-check"><input type="checkbox" checked={allOnPage} onChange={toggleAll} aria-label="Select all on this page" /></th>
                {columns.map(c => {
                  const sorted = sort.field === c.key;
                  const sortable = c.sort !== false;
                  return (
                    <th key={c.key} data-col={c.key} class={`${sortable ? 'sortable' : ''} ${sorted ? 'sorted' : ''}`}
                      aria-sort={sorted ? (sort.order > 0 ? 'ascending' : 'descending') : undefined}
                      onClick={sortable ? () => toggleSort(c.key) : undefined}>
                      {c.label}{sorted && <span class="models-arrow">{sort.order > 0 ? '▲' : '▼'}</span>}
                    </th>
                  );
                })}
              </tr>
            </thead>
            <tbody>
              {models.map(m => (
                <tr key={m.id} data-model-id={m.id} class={selected.has(m.id) ? 'selected' : ''}>
                  <td class="models-check"><input type="checkbox" data-testid="select-row" checked={selected.has(m.id)} onChange={() => toggle(m.id)} aria-label={`Select ${m.name}`} /></td>
                  {columns.map(c => <td key={c.key} data-col={c.key}>{c.cell(m)}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
          {models.length === 0 && (
            <div class="empty" data-testid="models-empty">
              {q ? `No model matches "${q}".` : archived ? 'No archived models here.' : 'No models yet. Models appear here when a task stores its weights (OutputModel, or a framework the SDK binds to).'}
            </div>
          )}
        </div>
      )}
      {models !== undefined && (page > 0 || models.length === PAGE_SIZE) && (
        <div class="models-pager">
          <button class="btn btn-small" disabled={page === 0} onClick={() => setPage(p => p - 1)} data-action="prev-page">Previous</button>
          <span class="muted small">Page {page + 1}</span>
          <button class="btn btn-small" disabled={models.length < PAGE_SIZE} onClick={() => setPage(p => p + 1)} data-action="next-page">Next</button>
        </div>
      )}
    </div>
  );
}
