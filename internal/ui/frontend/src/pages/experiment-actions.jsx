// The experiment page's actions (abort, enqueue, reset, clone, publish,
// archive/restore, delete): which apply in which status, the question each
// asks first, and the one API operation each runs.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { runAction } from '../components/toast.jsx';
import { navigate } from '../router.jsx';

export const isArchived = t => (t.system_tags || []).includes('archived');
// How often a running or queued experiment (and its console) is re-read.
export const LIVE_POLL_MS = 3000;

export const isLive = t => !!t && (t.status === 'in_progress' || t.status === 'queued');

// chooseQueue asks which queue to enqueue into; resolves its id or null.
function chooseQueue(taskName) {
  return new Promise(resolve => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const done = v => { render(null, host); host.remove(); resolve(v); };
    render(<QueueDialog taskName={taskName} done={done} />, host);
  });
}

function QueueDialog({ taskName, done }) {
  const [queues, setQueues] = useState(null);
  const [error, setError] = useState(null);
  const [picked, setPicked] = useState('');
  useEffect(() => {
    call('queues.get_all_ex', { only_fields: ['id', 'name', 'system_tags'], order_by: ['name'] }).then(all => {
      const qs = all.queues || [];
      setQueues(qs);
      // The default queue (system tag "default") is the first choice.
      setPicked((qs.find(q => (q.system_tags || []).includes('default')) || qs[0])?.id || '');
    }).catch(setError);
  }, []);
  return (
    <div class="modal-backdrop" onClick={e => e.target === e.currentTarget && done(null)}>
      <form class="modal" role="dialog" aria-modal="true" aria-label="Enqueue" onSubmit={e => { e.preventDefault(); done(picked || null); }}>
        <h2>Enqueue “{taskName}”</h2>
        {error && <div class="error-box">{error.message}</div>}
        {!error && queues === null && <div class="muted">Loading queues…</div>}
        {queues && queues.length === 0 && <div class="muted">No queue exists yet: create one (or start an agent) first.</div>}
        {queues && queues.length > 0 && (
          <label class="field">Queue
            <select value={picked} onChange={e => setPicked(e.target.value)} data-testid="queue-select">
              {queues.map(q => <option key={q.id} value={q.id}>{q.name}</option>)}
            </select>
          </label>
        )}
        <div class="modal-actions">
          <button type="button" class="btn" onClick={() => done(null)}>Cancel</button>
          <button type="submit" class="btn btn-primary" data-testid="confirm" disabled={!picked}>Enqueue</button>
        </div>
      </form>
    </div>
  );
}

// rename asks for a new name; resolves true when it was saved.
export async function rename(t) {
  const name = await promptText({ title: 'Rename experiment', label: 'Name', value: t.name || '', confirm: 'Rename' });
  if (!name || name === t.name) return false;
  return !!await runAction(() => call('tasks.update', { task: t.id, name }), 'Renamed');
}

// actionsFor lists the header's actions for a task: key (the data-action
// value), label, whether it applies now, and run() → true when the task
// changed (the page reloads it).
export function actionsFor(t, { base }) {
  const s = t.status;
  const archived = isArchived(t);
  const name = t.name || t.id;
  return [
    {
      key: 'abort', label: s === 'queued' ? 'Dequeue' : 'Abort', enabled: s === 'in_progress' || s === 'queued',
      run: async () => {
        if (!await confirmAction({ title: s === 'queued' ? 'Dequeue experiment?' : 'Abort experiment?', body: `“${name}” will ${s === 'queued' ? 'leave its queue and go back to draft' : 'be stopped'}.`, confirm: s === 'queued' ? 'Dequeue' : 'Abort' })) return false;
        return !!await runAction(() => call(s === 'queued' ? 'tasks.dequeue' : 'tasks.stop', { task: t.id }), s === 'queued' ? 'Dequeued' : 'Abort requested');
      },
    },
    {
      key: 'enqueue', label: 'Enqueue', enabled: s === 'created',
      run: async () => {
        const queue = await chooseQueue(name);
        if (!queue) return false;
        return !!await runAction(() => call('tasks.enqueue', { task: t.id, queue }), 'Enqueued');
      },
    },
    {
      key: 'reset', label: 'Reset', enabled: s !== 'created' && s !== 'published' && s !== 'publishing',
      run: async () => {
        if (!await confirmAction({ title: 'Reset experiment?', body: `“${name}” goes back to draft: its console, metrics, plots, debug samples and artifacts are deleted.`, confirm: 'Reset', danger: true })) return false;
        return !!await runAction(() => call('tasks.reset', { task: t.id, force: true, delete_output_models: true, delete_external_artifacts: true }), 'Reset to draft');
      },
    },
    {
      key: 'clone', label: 'Clone', enabled: true,
      run: async () => {
        const newName = await promptText({ title: 'Clone experiment', label: 'Name of the clone', value: `Clone Of ${name}`, confirm: 'Clone' });
        if (!newName) return false;
        const body = { task: t.id, new_task_name: newName };
        if (t.project?.id) body.new_task_project = t.project.id;
        const r = await runAction(() => call('tasks.clone', body), 'Cloned');
        if (r?.id) navigate(`${base.replace(/[^/]+$/, encodeURIComponent(r.id))}/execution`);
        return false;
      },
    },
    {
      key: 'publish', label: 'Publish', enabled: s === 'completed' || s === 'stopped',
      run: async () => {
        if (!await confirmAction({ title: 'Publish experiment?', body: `A published experiment and its output models are locked: “${name}” cannot be changed or reset afterwards.`, confirm: 'Publish' })) return false;
        return !!await runAction(() => call('tasks.publish', { task: t.id }), 'Published');
      },
    },
    archived
      ? {
        key: 'restore', label: 'Restore', enabled: true,
        run: async () => !!await runAction(() => call('tasks.unarchive_many', { ids: [t.id] }), 'Restored from the archive'),
      }
      : {
        key: 'archive', label: 'Archive', enabled: s !== 'in_progress',
        run: async () => {
          if (!await confirmAction({ title: 'Archive experiment?', body: `“${name}” moves to the project's archive; it can be restored.`, confirm: 'Archive' })) return false;
          return !!await runAction(() => call('tasks.archive', { tasks: [t.id] }), 'Archived');
        },
      },
    {
      key: 'delete', label: 'Delete', enabled: true, danger: true,
      run: async () => {
        if (!await confirmAction({ title: 'Delete experiment?', body: `“${name}” and everything it reported (console, metrics, artifacts, output models) are deleted for good.`, confirm: 'Delete', danger: true })) return false;
        const r = await runAction(() => call('tasks.delete', { task: t.id, force: true, delete_output_models: true, delete_external_artifacts: true }), 'Deleted');
        if (r) navigate(t.project?.id ? `/projects/${encodeURIComponent(t.project.id)}/experiments` : '/experiments');
        return false;
      },
    },
  ];
}
