// The projects page: every visible project as a tree with its sub-projects,
// experiment and model counts and last update; search; create, rename and
// delete. Hidden system projects (dataset and pipeline internals) stay out,
// as in the ClearML app, since the list does not ask for hidden ones.

import { useMemo, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi, usePersisted } from '../hooks.js';
import { Link } from '../router.jsx';
import { ErrorBox, Loaded } from '../components/feedback.jsx';
import { fmtAgo, fmtDate, fmtNum } from '../format.js';
import { buildTree, label, visibleRows } from './projects-tree.jsx';
import { createProject, deleteProject, renameProject } from './projects-actions.jsx';
import './projects.css';

const pageSize = 500;
const maxPages = 10;
const autoOpenLimit = 50;

// loadProjects reads all visible projects, page by page (a few calls even
// for thousands of projects). With stats it asks for the counts only:
// those take the server a while on large stores, so the tree shows first
// and the counts fill in.
async function loadProjects(signal, stats) {
  const all = [];
  const body = stats
    ? { only_fields: ['id'], include_stats: true, stats_for_state: 'active', check_own_contents: true,
      include_stats_filter: { system_tags: ['-pipeline', '-dataset'] } }
    : { only_fields: ['name', 'basename', 'parent', 'last_update', 'system_tags'] };
  for (let page = 0; page < maxPages; page++) {
    const r = await call('projects.get_all_ex', { ...body, order_by: ['name'], page, page_size: pageSize, search_hidden: false }, { signal });
    all.push(...(r.projects || []));
    if ((r.projects || []).length < pageSize) return { projects: all, truncated: false };
  }
  return { projects: all, truncated: true };
}

// withStats merges the counts into the project list.
function withStats(projects, stats) {
  if (!stats) return projects;
  const by = new Map(stats.projects.map(p => [p.id, p]));
  return projects.map(p => {
    const s = by.get(p.id);
    return s ? { ...p, stats: s.stats, own_tasks: s.own_tasks, own_models: s.own_models, counted: true } : p;
  });
}

const href = id => `/projects/${encodeURIComponent(id)}/experiments`;

function Caret({ node, open, onToggle }) {
  if (!node.children.length) return <span class="pj-caret pj-leaf" />;
  return (
    <button type="button" class="pj-caret" aria-expanded={open} aria-label={open ? 'Collapse' : 'Expand'} data-testid="expand"
      onClick={() => onToggle(node.id)}>
      <svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true" style={{ transform: open ? 'rotate(90deg)' : 'none' }}><path d="M3 1l4 4-4 4" fill="none" stroke="currentColor" stroke-width="1.6" /></svg>
    </button>
  );
}

const Pending = () => <span class="pj-pending" aria-label="counting" />;

function Row({ node, open, searching, onToggle, onChanged }) {
  const s = node.stats?.active;
  const running = s?.status_count?.in_progress || 0;
  const queued = s?.status_count?.queued || 0;
  const act = fn => async () => { if (await fn(node)) onChanged(); };
  return (
    <tr data-row-project={node.id}>
      <td class="pj-name-cell">
        <div class="pj-name" style={{ paddingLeft: `${node.depth * 20}px` }}>
          <Caret node={node} open={open || searching} onToggle={onToggle} />
          <svg class="pj-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path d="M3 6h7l2 2h9v11H3z" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linejoin="round" /></svg>
          <Link href={href(node.id)} data-project-id={node.id} title={node.name}>{label(node)}</Link>
          {node.children.length > 0 && <span class="muted small">{node.children.length} sub-project{node.children.length === 1 ? '' : 's'}</span>}
        </div>
      </td>
      <td class="num" title={`${node.own_tasks ?? 0} in this project itself`} data-count="tasks">{node.counted ? fmtNum(s?.total_tasks ?? 0) : <Pending />}</td>
      <td class="num">{!node.counted ? <Pending /> : running || queued ? <span class="pj-live">{running ? `${running} running` : ''}{running && queued ? ', ' : ''}{queued ? `${queued} queued` : ''}</span> : <span class="muted">—</span>}</td>
      <td class="num" data-count="models">{node.counted ? fmtNum(node.models) : <Pending />}</td>
      <td title={fmtDate(node.updated)}>{fmtAgo(node.updated)}</td>
      <td class="pj-row-actions">
        <button type="button" class="btn btn-ghost btn-small" data-action="new-sub" title="New sub-project" onClick={act(createProject)}>+ Sub</button>
        <button type="button" class="btn btn-ghost btn-small" data-action="rename" onClick={act(renameProject)}>Rename</button>
        <button type="button" class="btn btn-ghost btn-small pj-danger" data-action="delete-project" onClick={act(deleteProject)}>Delete</button>
      </td>
    </tr>
  );
}

export function ProjectsPage() {
  const state = useApi(signal => loadProjects(signal, false), []);
  const stats = useApi(signal => loadProjects(signal, true), [], { poll: 15000 });
  const [expanded, setExpanded] = usePersisted('projects.expanded', {});
  const [text, setText] = useState('');
  const tree = useMemo(() => (state.data ? buildTree(withStats(state.data.projects, stats.data)) : []), [state.data, stats.data]);
  const reload = () => { state.reload(); stats.reload(); };
  // A small tree opens fully, a large one shows its top level; what the
  // user opens or closes is remembered either way.
  const openByDefault = (state.data?.projects.length || 0) <= autoOpenLimit;
  const isOpen = id => expanded[id] ?? openByDefault;
  const toggle = id => setExpanded(e => ({ ...e, [id]: !(e[id] ?? openByDefault) }));
  const searching = !!text.trim();
  const onNew = async () => { if (await createProject(null)) reload(); };

  return (
    <div class="pj-page">
      <div class="page-head">
        <h1>Projects</h1>
        <span class="spacer" />
        <input type="search" data-testid="project-search" placeholder="Search projects…" value={text}
          onInput={e => setText(e.target.value)} aria-label="Search projects" />
        <button type="button" class="btn btn-primary" data-action="create-project" onClick={onNew}>New project</button>
      </div>
      {stats.error && <ErrorBox error={stats.error} retry={stats.reload} />}
      <Loaded state={state} what="projects">
        {({ truncated }) => {
          const rows = visibleRows(tree, isOpen, text);
          return (
            <>
              <div class="table-wrap">
                <table class="grid pj-table" data-testid="projects">
                  <thead>
                    <tr><th>Name</th><th class="num">Experiments</th><th class="num">Active</th><th class="num">Models</th><th>Last update</th><th /></tr>
                  </thead>
                  <tbody>
                    <tr class="pj-all">
                      <td colSpan={6}><Link href="/experiments" data-testid="all-experiments">All experiments</Link> <span class="muted small">across every project</span></td>
                    </tr>
                    {rows.map(n => <Row key={n.id} node={n} open={isOpen(n.id)} searching={searching} onToggle={toggle} onChanged={reload} />)}
                  </tbody>
                </table>
                {!tree.length && <div class="empty">No projects yet. Create one, or run a training script with the ClearML SDK: its project appears here.</div>}
                {tree.length > 0 && searching && !rows.length && <div class="empty" data-testid="no-match">No project matches "{text}".</div>}
              </div>
              {truncated && <p class="muted small">Showing the first {pageSize * maxPages} projects; search to find others.</p>}
            </>
          );
        }}
      </Loaded>
    </div>
  );
}
