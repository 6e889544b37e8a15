// The overview tab: the experiment's fields, its editable comment and
// tags, its runtime properties and its last metric values.

import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { Link } from '../router.jsx';
import { promptText } from '../components/dialog.jsx';
import { runAction } from '../components/toast.jsx';
import { fmtDate, fmtDuration, fmtNum } from '../format.js';

function Row({ label, children, testid }) {
  if (children === undefined || children === null || children === '' || children === false) return null;
  return <><dt>{label}</dt><dd data-testid={testid}>{children}</dd></>;
}

export function CopyId({ id }) {
  const copy = () => navigator.clipboard?.writeText(id).catch(() => {});
  return <span class="xp-id"><code>{id}</code> <button class="btn btn-ghost btn-small" title="Copy the id" onClick={copy}>Copy</button></span>;
}

function Comment({ task, reload }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(task.comment || '');
  useEffect(() => { if (!editing) setText(task.comment || ''); }, [task.comment, editing]);
  const save = async () => {
    if (await runAction(() => call('tasks.update', { task: task.id, comment: text }), 'Description saved')) {
      setEditing(false);
      reload();
    }
  };
  return (
    <div class="panel panel-pad xp-comment">
      <div class="xp-section-head">
        <h3>Description</h3>
        {!editing && <button class="btn btn-small" data-action="edit-comment" onClick={() => setEditing(true)}>Edit</button>}
      </div>
      {editing ? (
        <>
          <textarea rows={4} value={text} onInput={e => setText(e.target.value)} data-testid="comment-input" />
          <div class="toolbar xp-edit-actions">
            <button class="btn btn-small" onClick={() => setEditing(false)}>Cancel</button>
            <button class="btn btn-small btn-primary" data-action="save-comment" onClick={save}>Save</button>
          </div>
        </>
      ) : task.comment ? <p class="xp-comment-text" data-testid="comment">{task.comment}</p> : <p class="muted">No description.</p>}
    </div>
  );
}

function Tags({ task, reload }) {
  const tags = task.tags || [];
  const set = next => runAction(() => call('tasks.update', { task: task.id, tags: next })).then(r => r && reload());
  const add = async () => {
    const tag = await promptText({ title: 'Add a tag', label: 'Tag', confirm: 'Add' });
    if (tag && !tags.includes(tag)) set([...tags, tag]);
  };
  return (
    <span class="xp-tags">
      {tags.map(tag => (
        <span key={tag} class="tag" data-tag={tag}>{tag}
          <button class="xp-tag-x" title={`Remove ${tag}`} aria-label={`Remove tag ${tag}`} onClick={() => set(tags.filter(x => x !== tag))}>×</button>
        </span>
      ))}
      <button class="btn btn-ghost btn-small" data-action="add-tag" onClick={add}>+ tag</button>
    </span>
  );
}

// lastMetrics flattens last_metrics {metricHash: {variantHash: {...}}}.
export function lastMetrics(task) {
  const out = [];
  for (const byVariant of Object.values(task.last_metrics || {})) {
    for (const m of Object.values(byVariant || {})) out.push(m);
  }
  return out.sort((a, b) => (a.metric || '').localeCompare(b.metric || '') || (a.variant || '').localeCompare(b.variant || ''));
}

export function InfoTab({ task: t, reload }) {
  const runtime = Object.entries(t.runtime || {});
  const metrics = lastMetrics(t);
  const parent = t.parent && (typeof t.parent === 'object' ? t.parent : { id: t.parent });
  return (
    <div class="xp-grid">
      <div class="panel panel-pad">
        <h3>Details</h3>
        <dl class="kv" data-testid="task-info">
          <Row label="ID"><CopyId id={t.id} /></Row>
          <Row label="Project">{t.project?.id && <Link href={`/projects/${encodeURIComponent(t.project.id)}/experiments`}>{t.project.name || t.project.id}</Link>}</Row>
          <Row label="Type">{t.type}</Row>
          <Row label="Status" testid="info-status">{t.status}{t.status_reason && t.status_reason !== t.status ? ` (${t.status_reason})` : ''}</Row>
          <Row label="Status message">{t.status_message}</Row>
          <Row label="User">{t.user?.name || t.user?.id}</Row>
          <Row label="Created">{fmtDate(t.created)}</Row>
          <Row label="Started">{fmtDate(t.started)}</Row>
          <Row label="Last update">{fmtDate(t.last_update)}</Row>
          <Row label="Completed">{fmtDate(t.completed)}</Row>
          <Row label="Run time">{t.active_duration ? fmtDuration(t.active_duration * 1000) : ''}</Row>
          <Row label="Last iteration">{t.last_iteration !== undefined && t.last_iteration !== null ? fmtNum(t.last_iteration) : ''}</Row>
          <Row label="Worker">{t.last_worker}</Row>
          <Row label="Queue">{t.execution?.queue?.name || t.execution?.queue?.id}</Row>
          <Row label="Parent">{parent && <Link href={`/projects/*/experiments/${encodeURIComponent(parent.id)}/info`}>{parent.name || parent.id}</Link>}</Row>
          <Row label="Tags"><Tags task={t} reload={reload} /></Row>
          <Row label="System tags">{(t.system_tags || []).length ? (t.system_tags || []).map(s => <span key={s} class="tag">{s}</span>) : ''}</Row>
        </dl>
      </div>
      <div class="xp-col">
        <Comment task={t} reload={reload} />
        <div class="panel panel-pad">
          <h3>Runtime properties</h3>
          {runtime.length === 0 ? <p class="muted">None reported.</p> : (
            <dl class="kv" data-testid="runtime">
              {runtime.map(([k, v]) => <Row key={k} label={k}>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</Row>)}
            </dl>
          )}
        </div>
      </div>
      <div class="panel xp-wide">
        <div class="panel-pad"><h3>Last metric values</h3></div>
        {metrics.length === 0 ? <p class="muted panel-pad">No scalars reported yet.</p> : (
          <table class="grid" data-testid="last-metrics">
            <thead><tr><th>Metric</th><th>Variant</th><th class="num">Last</th><th class="num">Min</th><th class="num">Max</th></tr></thead>
            <tbody>
              {metrics.map(m => (
                <tr key={m.metric + '/' + m.variant}>
                  <td>{m.metric}</td><td>{m.variant}</td>
                  <td class="num">{fmtNum(m.value)}</td><td class="num">{fmtNum(m.min_value)}</td><td class="num">{fmtNum(m.max_value)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
