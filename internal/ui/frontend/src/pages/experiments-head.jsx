// The head of the experiments page: the project's path as breadcrumbs,
// its name, and links to its direct sub-projects.

import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Link } from '../router.jsx';
import { escapeRegex } from './experiments-query.jsx';

const href = id => `/projects/${encodeURIComponent(id)}/experiments`;

// loadProject reads the project, its ancestors (by path name, as the
// ClearML app does) and its direct children. A missing project throws
// a not-found error the page turns into its not-found view.
async function loadProject(id) {
  const [own, kids] = await Promise.all([
    call('projects.get_all_ex', { id: [id], only_fields: ['name', 'basename', 'system_tags'] }),
    call('projects.get_all_ex', { parent: [id], shallow_search: true, only_fields: ['name', 'basename'], order_by: ['name'], page: 0, page_size: 100 }),
  ]);
  const p = own.projects?.[0];
  if (!p) { const e = new Error(`No project with id ${id}`); e.status = 404; throw e; }
  const parts = p.name.split('/');
  const prefixes = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join('/'));
  let ancestors = [];
  if (prefixes.length) {
    const r = await call('projects.get_all_ex', { _any_: { fields: ['name'], pattern: prefixes.map(n => `^${escapeRegex(n)}$`).join('|') }, only_fields: ['name'], search_hidden: true });
    ancestors = prefixes.map(n => (r.projects || []).find(a => a.name === n) || { name: n });
  }
  return { project: p, ancestors, children: kids.projects || [] };
}

export function useProjectHead(project) {
  const all = !project || project === '*';
  return useApi(() => (all ? Promise.resolve(null) : loadProject(project)), [project]);
}

export function ExperimentsHead({ head, tab = 'experiments' }) {
  if (!head) {
    return (
      <div class="xt-head">
        <div class="crumbs"><Link href="/projects">Projects</Link></div>
        <h1>All experiments</h1>
      </div>
    );
  }
  const { project, ancestors, children } = head;
  return (
    <div class="xt-head">
      <div class="crumbs">
        <Link href="/projects">Projects</Link>
        {ancestors.map(a => <span key={a.name}> / {a.id ? <Link href={href(a.id)}>{a.name.split('/').pop()}</Link> : a.name.split('/').pop()}</span>)}
      </div>
      <h1 data-testid="project-name">{project.basename || project.name.split('/').pop()}</h1>
      <nav class="xt-tabs">
        <Link href={href(project.id)} class={tab === 'experiments' ? 'on' : ''} data-testid="tab-experiments">Experiments</Link>
        <Link href={`/projects/${encodeURIComponent(project.id)}/traces`} class={tab === 'traces' ? 'on' : ''} data-testid="tab-traces">Traces</Link>
      </nav>
      {children.length > 0 && (
        <div class="xt-children">
          <span class="muted small">Sub-projects:</span>
          {children.map(c => <Link key={c.id} href={href(c.id)} class="xt-chip" data-project-id={c.id}>{c.basename || c.name.split('/').pop()}</Link>)}
        </div>
      )}
    </div>
  );
}
