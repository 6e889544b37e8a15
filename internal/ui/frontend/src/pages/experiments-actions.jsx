// The table's multi-select actions. Each calls one public operation on the
// selected tasks and reports what happened: how many succeeded and, for
// those that failed, the server's reason.

import { call } from '../api.js';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { toast } from '../components/toast.jsx';
import { editTags, pickProject, pickQueue } from './experiments-dialogs.jsx';

const plural = (n, w = 'experiment') => `${n} ${w}${n === 1 ? '' : 's'}`;

// report toasts a *_many answer {succeeded, failed:[{id, error:{msg}}]}.
export function report(verb, res, names) {
  const ok = res?.succeeded?.length ?? 0;
  const failed = res?.failed || [];
  if (!failed.length) { toast(`${plural(ok)} ${verb}`); return; }
  toast(
    <div data-testid="action-result">
      <div>{ok ? `${plural(ok)} ${verb}; ` : ''}{failed.length} failed:</div>
      <ul class="xt-fail-list">
        {failed.slice(0, 5).map(f => <li key={f.id}><strong>{names[f.id] || f.id}</strong>: {f.error?.msg || 'failed'}</li>)}
        {failed.length > 5 && <li>and {failed.length - 5} more</li>}
      </ul>
    </div>,
    ok ? 'info' : 'error',
  );
}

const active = t => t.status === 'in_progress' || t.status === 'queued';
const archivedTag = t => (t.system_tags || []).includes('archived');

// actions, in toolbar order. enabled(tasks) decides the button state from
// the selected rows; run(ids, tasks, ctx) does the work and returns true
// when the table should reload.
export const actions = [
  {
    id: 'abort', label: 'Abort', enabled: ts => ts.some(active),
    run: async (ids, ts, names) => {
      if (!await confirmAction({ title: 'Abort experiments?', body: `Stop ${plural(ids.length)} that are running or queued.`, confirm: 'Abort', danger: true })) return false;
      report('aborted', await call('tasks.stop_many', { ids }), names);
      return true;
    },
  },
  {
    id: 'enqueue', label: 'Enqueue', enabled: ts => ts.some(t => t.status === 'created' || t.status === 'stopped' || t.status === 'failed'),
    run: async (ids, ts, names) => {
      const queue = await pickQueue();
      if (!queue) return false;
      report('enqueued', await call('tasks.enqueue_many', { ids, queue, validate_tasks: true }), names);
      return true;
    },
  },
  {
    id: 'reset', label: 'Reset', enabled: ts => ts.some(t => t.status !== 'created' && t.status !== 'published'),
    run: async (ids, ts, names) => {
      if (!await confirmAction({ title: 'Reset experiments?', body: `${plural(ids.length)} go back to draft; their logs, scalars, plots and output models are deleted.`, confirm: 'Reset', danger: true })) return false;
      report('reset', await call('tasks.reset_many', { ids, force: true, delete_output_models: true }), names);
      return true;
    },
  },
  {
    id: 'clone', label: 'Clone', enabled: ts => ts.length === 1,
    run: async (ids, ts) => {
      const t = ts[0];
      const name = await promptText({ title: 'Clone experiment', label: 'Name of the clone', value: `Clone of ${t.name}`, confirm: 'Clone' });
      if (!name) return false;
      const body = { task: t.id, new_task_name: name };
      if (t.project?.id) body.new_task_project = t.project.id;
      const r = await call('tasks.clone', body);
      toast(`Cloned as "${name}" (${r.id})`);
      return true;
    },
  },
  {
    id: 'archive', label: 'Archive', enabled: ts => ts.some(t => !archivedTag(t)), view: 'active',
    run: async (ids, ts, names) => { report('archived', await call('tasks.archive_many', { ids }), names); return true; },
  },
  {
    id: 'restore', label: 'Restore', enabled: ts => ts.some(archivedTag), view: 'archived',
    run: async (ids, ts, names) => { report('restored', await call('tasks.unarchive_many', { ids }), names); return true; },
  },
  {
    id: 'publish', label: 'Publish', enabled: ts => ts.some(t => t.status === 'completed' || t.status === 'stopped'),
    run: async (ids, ts, names) => {
      if (!await confirmAction({ title: 'Publish experiments?', body: `Published experiments and their models can no longer be changed (${plural(ids.length)}).`, confirm: 'Publish' })) return false;
      report('published', await call('tasks.publish_many', { ids }), names);
      return true;
    },
  },
  {
    id: 'tag', label: 'Tag', enabled: ts => ts.length > 0,
    run: async (ids, ts) => {
      const current = [...new Set(ts.flatMap(t => t.tags || []))].sort();
      const r = await editTags(current);
      if (!r) return false;
      const body = { ids };
      if (r.add.length) body.add_tags = r.add;
      if (r.remove.length) body.remove_tags = r.remove;
      const res = await call('tasks.update_tags', body);
      toast(`Tags updated on ${plural(res.updated ?? ids.length)}`);
      return true;
    },
  },
  {
    id: 'move', label: 'Move', enabled: ts => ts.length > 0,
    run: async ids => {
      const project = await pickProject();
      if (!project) return false;
      await call('tasks.move', { ids, project });
      toast(`${plural(ids.length)} moved`);
      return true;
    },
  },
  {
    id: 'delete', label: 'Delete', danger: true, enabled: ts => ts.length > 0,
    run: async (ids, ts, names) => {
      if (!await confirmAction({ title: 'Delete experiments?', body: `${plural(ids.length)} and all their results are deleted for good.`, confirm: 'Delete', danger: true })) return false;
      report('deleted', await call('tasks.delete_many', { ids, force: true, delete_output_models: true }), names);
      return true;
    },
  },
];
