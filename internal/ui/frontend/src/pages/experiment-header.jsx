// The experiment page's header: breadcrumb, name, status, type, who and
// when, and the action buttons.

import { useState } from 'preact/hooks';
import { Link } from '../router.jsx';
import { StatusBadge } from '../components/status.jsx';
import { fmtAgo, fmtDate, fmtNum } from '../format.js';
import { actionsFor, isArchived, rename } from './experiment-actions.jsx';

function Crumbs({ project }) {
  const parts = (project?.name || '').split('/').filter(Boolean);
  return (
    <div class="crumbs">
      <Link href="/projects">Projects</Link>
      {parts.length > 0 && parts.slice(0, -1).map((p, i) => <span key={i}> / {p}</span>)}
      {project?.id && <> / <Link href={`/projects/${encodeURIComponent(project.id)}/experiments`} data-testid="project-link">{parts[parts.length - 1] || project.id}</Link></>}
    </div>
  );
}

function Stamp({ label, value, ago }) {
  if (value === undefined || value === null || value === '') return null;
  return <span class="xp-stamp"><span class="muted">{label}</span> <span title={ago ? fmtDate(value) : undefined}>{ago ? fmtAgo(value) : value}</span></span>;
}

export function ExperimentHeader({ task: t, base, onChanged }) {
  const [busy, setBusy] = useState('');
  const run = async a => {
    setBusy(a.key);
    try { if (await a.run()) onChanged(); } finally { setBusy(''); }
  };
  return (
    <header class="xp-head">
      <Crumbs project={t.project} />
      <div class="xp-title">
        <h1 data-testid="task-name" title={t.name}>{t.name || t.id}</h1>
        <button class="btn btn-ghost btn-small xp-rename" data-action="rename" title="Rename" aria-label="Rename"
          onClick={async () => { if (await rename(t)) onChanged(); }}>✎</button>
        <StatusBadge status={t.status} />
        {t.type && <span class="badge badge-grey" data-testid="task-type">{t.type.replace(/_/g, ' ')}</span>}
        {isArchived(t) && <span class="badge badge-amber">archived</span>}
        {(t.tags || []).map(tag => <span key={tag} class="tag">{tag}</span>)}
      </div>
      <div class="xp-meta">
        <Stamp label="by" value={t.user?.name || t.user?.id} />
        <Stamp label="created" value={t.created} ago />
        <Stamp label="started" value={t.started} ago />
        <Stamp label="updated" value={t.last_update} ago />
        <Stamp label="completed" value={t.completed} ago />
        <Stamp label="iteration" value={t.last_iteration || (t.last_iteration === 0 && t.started) ? fmtNum(t.last_iteration) : ''} />
        {t.status === 'in_progress' && t.runtime?.progress && <Stamp label="progress" value={`${t.runtime.progress}%`} />}
      </div>
      {t.status_message && t.status !== 'completed' && <div class="xp-status-msg muted small">{t.status_reason ? `${t.status_reason}: ` : ''}{t.status_message}</div>}
      <div class="toolbar xp-actions">
        {actionsFor(t, { base }).map(a => (
          <button key={a.key} class={a.danger ? 'btn btn-small xp-danger' : 'btn btn-small'} data-action={a.key}
            disabled={!a.enabled || !!busy} onClick={() => run(a)}>
            {busy === a.key ? '…' : a.label}
          </button>
        ))}
      </div>
    </header>
  );
}
