// One model's page (/projects/<p>/models/<m>): what it is, where its file
// is (with a download through the file server), the task that made it,
// its labels, metadata and design, and the actions on it.

import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Link, navigate } from '../router.jsx';
import { Loaded, NotFound } from '../components/feedback.jsx';
import { fmtDate } from '../format.js';
import { modelActions } from './models-actions.js';
import { ModelStatus, fileName } from './model-parts.jsx';
import { BlockedUrl, ExternalUrl, useUrlPolicy } from '../safe-link.jsx';
import './models.css';

const fields = ['created', 'last_change', 'last_update', 'framework', 'id', 'labels', 'name', 'ready', 'tags',
  'system_tags', 'task.name', 'task.project', 'uri', 'user.name', 'parent', 'comment', 'project.name', 'design', 'metadata'];

async function loadModel(id) {
  const d = await call('models.get_by_id_ex', { id: [id], only_fields: fields });
  return d.models?.[0] || null;
}

export function ModelPage({ model: id }) {
  const state = useApi(() => loadModel(id), [id]);
  return (
    <Loaded state={state} what="model" id={id}>
      {m => (m ? <ModelView m={m} reload={state.reload} /> : <NotFound what="model" id={id} />)}
    </Loaded>
  );
}

function ModelView({ m, reload }) {
  const archived = (m.system_tags || []).includes('archived');
  const projectId = m.project?.id;
  const act = async key => {
    const r = await modelActions[key].run([m.id]);
    if (r === undefined) return;
    const gone = key === 'delete' && (r.succeeded || []).some(x => x.id === m.id);
    if (gone) navigate(projectId ? `/projects/${projectId}/models` : '/models');
    else reload();
  };
  const shown = Object.entries(modelActions).filter(([key, a]) => a.when({ archived }) && !(key === 'publish' && m.ready));

  return (
    <div class="model-page">
      <div class="crumbs">
        <Link href="/projects">Projects</Link>
        {projectId && <> / <Link href={`/projects/${projectId}/experiments`}>{m.project.name || projectId}</Link></>}
        {' / '}<Link href={projectId ? `/projects/${projectId}/models` : '/models'}>Models</Link>
      </div>
      <div class="page-head">
        <h1 data-testid="model-name">{m.name || m.id}</h1>
        <ModelStatus model={m} />
        {archived && <span class="badge badge-amber">archived</span>}
        <span class="spacer" />
        {shown.map(([key, a]) => (
          <button key={key} class={a.danger ? 'btn btn-small models-danger' : 'btn btn-small'} data-action={key} onClick={() => act(key)}>{a.label}</button>
        ))}
      </div>
      <div class="model-grid">
        <section class="panel panel-pad">
          <h2>Overview</h2>
          <dl class="kv">
            <dt>ID</dt><dd><code>{m.id}</code></dd>
            <dt>Framework</dt><dd>{m.framework || '–'}</dd>
            <dt>Status</dt><dd>{m.ready ? 'Published' : 'Draft'}</dd>
            <dt>User</dt><dd>{m.user?.name || m.user?.id || '–'}</dd>
            <dt>Created</dt><dd>{fmtDate(m.created)}</dd>
            <dt>Updated</dt><dd>{fmtDate(m.last_update || m.last_change)}</dd>
            <dt>Project</dt><dd>{projectId ? <Link href={`/projects/${projectId}/models`}>{m.project.name || projectId}</Link> : '–'}</dd>
            <dt>Created by</dt>
            <dd data-testid="model-task">{m.task?.id
              ? <Link href={`/projects/${encodeURIComponent(m.task.project || projectId || '*')}/experiments/${m.task.id}`}>{m.task.name || m.task.id}</Link>
              : '–'}</dd>
            {m.parent && <><dt>Parent</dt><dd><code>{typeof m.parent === 'string' ? m.parent : m.parent.id}</code></dd></>}
            <dt>Tags</dt><dd>{(m.tags || []).length ? m.tags.map(t => <span class="tag" key={t}>{t}</span>) : '–'}</dd>
          </dl>
          <ModelFile uri={m.uri} />
          {m.comment && <><h3 class="model-sub">Description</h3><p class="model-comment">{m.comment}</p></>}
        </section>
        <section class="panel panel-pad">
          <h2>Labels</h2>
          <Labels labels={m.labels} />
          <h2 class="model-sub">Metadata</h2>
          <Metadata metadata={m.metadata} />
        </section>
      </div>
      <section class="panel panel-pad model-design">
        <h2>Design</h2>
        <Design design={m.design} />
      </section>
    </div>
  );
}

function ModelFile({ uri }) {
  const policy = useUrlPolicy();
  if (!uri) return <p class="muted model-uri">No file is stored for this model.</p>;
  const c = policy(uri);
  return (
    <div class="model-uri">
      <h3 class="model-sub">File</h3>
      <code data-testid="model-uri">{uri}</code>
      {c.kind === 'files' && <a class="btn btn-small" href={c.href} download={fileName(uri)} data-testid="model-download" data-action="download">Download</a>}
      {c.kind === 'external' && <ExternalUrl href={c.href} />}
      {c.kind === 'blocked' && <BlockedUrl raw={uri} c={c} />}
    </div>
  );
}

function Labels({ labels }) {
  const rows = Object.entries(labels || {}).sort((a, b) => a[1] - b[1]);
  if (!rows.length) return <p class="muted">No labels.</p>;
  return (
    <table class="grid model-table" data-testid="model-labels">
      <thead><tr><th>Label</th><th>ID</th></tr></thead>
      <tbody>{rows.map(([k, v]) => <tr key={k} data-label={k}><td>{k}</td><td class="num">{v}</td></tr>)}</tbody>
    </table>
  );
}

function Metadata({ metadata }) {
  const rows = Object.entries(metadata || {});
  if (!rows.length) return <p class="muted">No metadata.</p>;
  return (
    <table class="grid model-table" data-testid="model-metadata">
      <thead><tr><th>Key</th><th>Type</th><th>Value</th></tr></thead>
      <tbody>{rows.map(([k, v]) => (
        <tr key={k} data-key={k}><td>{v?.key || k}</td><td class="muted">{v?.type || ''}</td><td>{typeof v === 'object' ? String(v?.value ?? '') : String(v)}</td></tr>
      ))}</tbody>
    </table>
  );
}

// Design is the network or configuration text the SDK stores (design.design),
// or the whole object when it has another shape.
function Design({ design }) {
  let text = '';
  if (design && typeof design === 'object') {
    const keys = Object.keys(design);
    text = keys.length === 1 && typeof design[keys[0]] === 'string' ? design[keys[0]] : (keys.length ? JSON.stringify(design, null, 2) : '');
  } else if (typeof design === 'string') text = design;
  if (!text.trim()) return <p class="muted">No design is stored for this model.</p>;
  return <pre class="code" data-testid="model-design">{text}</pre>;
}
