// The projects page: every visible project as a tree with its sub-projects,
// experiment and model counts and last update; search; create, rename and
// delete. Hidden system projects (dataset and pipeline internals) stay out,
// as in the ClearML app, since the list does not ask for hidden ones.

import { useMemo, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi, usePersisted } from '../hooks.js';
import { Link } from '../router.jsx';
import { Loaded } from '../components/feedback.jsx';
import { fmtAgo, fmtDate, fmtNum } from '../format.js';
import { buildTree, label, visibleRows } from './projects-tree.jsx';
import { createProject, deleteProject, renameProject } from './projects-actions.jsx';
import './projects.css';

const pageSize = 500;
const maxPages = 10;

// loadProjects reads all visible projects with their stats, page by page
// (a few calls even for thousands of projects).
async function loadProjects(signal) {
  const all = [];
  for (let page = 0; page < maxPages; page++) {
    const r = await call('projects.get_all_ex', {
      only_fields: ['name', 'basename', 'parent', 'last_update', 'created', 'system_tags', 'user'],
      include_stats: true, stats_for_state: 'active', check_own_contents: true,
      include_stats_filter: { system_tags: ['-pipeline', '-dataset'] },
      order_by: ['name'], page, page_size: pageSize, search_hidden: false,
    }, { signal });
    all.push(...(r.projects || []));
    if ((r.projects || []).length < pageSize) return { projects: all, truncated: false };
  }
  return { projects: all, truncated: true };
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
      <td class="num" title={`${node.own_tasks ?? 0} in this project itself`}>{fmtNum(s?.total_tasks ?? 0)}</td>
      <td class="num">{running || queued ? <span class="pj-live">{running ? `${running} running` : ''}{running && queued ? ', ' : ''}{queued ? `${queued} queued` : ''}</span> : <span class="muted">—</span>}</td>
      <td class="num">{fmtNum(node.models)}</td>
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
  const state = useApi(loadProjects, [], { poll: 15000 });
  const [expanded, setExpanded] = usePersisted('projects.expanded', {});
  const [text, setText] = useState('');
  const tree = useMemo(() => (state.data ? buildTree(state.data.projects) : []), [state.data]);
  const toggle = id => setExpanded(e => ({ ...e, [id]: !e[id] }));
  const searching = !!text.trim();
  const onNew = async () => { if (await createProject(null)) state.reload(); };

  return (
    <div class="pj-page">
      <div class="page-head">
        <h1>Projects</h1>
        <span class="spacer" />
        <input type="search" data-testid="project-search" placeholder="Search projects…" value={text}
          onInput={e => setText(e.target.value)} aria-label="Search projects" />
        <button type="button" class="btn btn-primary" data-action="create-project" onClick={onNew}>New project</button>
      </div>
      <Loaded state={state} what="projects">
        {({ truncated }) => {
          const rows = visibleRows(tree, expanded, text);
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
                    {rows.map(n => <Row key={n.id} node={n} open={!!expanded[n.id]} searching={searching} onToggle={toggle} onChanged={state.reload} />)}
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
