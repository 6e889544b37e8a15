// The queues page (/queues): every queue with its entries, reordered by
// drag and drop or the arrow buttons; create, rename and delete queues;
// the queue-length and wait-time charts. Polls so it follows agents.

import { useEffect, useMemo, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { runAction } from '../components/toast.jsx';
import { QueueCard } from './queues-card.jsx';
import { QueueMetrics } from './queues-metrics.jsx';
import { moveCall, moved } from './queues-order.js';
import './queues.css';

const POLL_MS = 5000;

// loadQueues reads the queues with their entries' task names (as the
// ClearML web app asks), then the entries' projects and statuses for links.
async function loadQueues() {
  const { queues = [] } = await call('queues.get_all_ex', { only_fields: ['*', 'entries.task.name'] });
  const ids = [...new Set(queues.flatMap(q => (q.entries || []).map(e => e.task?.id).filter(Boolean)))];
  const tasks = {};
  if (ids.length) {
    const r = await call('tasks.get_all_ex', { id: ids, only_fields: ['id', 'project', 'status'], size: ids.length });
    for (const t of r.tasks || []) tasks[t.id] = { project: t.project?.id || t.project, status: t.status };
  }
  queues.sort((a, b) => (a.name || '').localeCompare(b.name || ''));
  return { queues, tasks };
}

export function QueuesPage() {
  const state = useApi(loadQueues, [], { poll: POLL_MS });
  const [local, setLocal] = useState(null); // a reorder shown before the server confirms it
  const [selectedId, setSelectedId] = useState(null);
  const [now, setNow] = useState(Date.now());
  useEffect(() => { const t = setInterval(() => setNow(Date.now()), 1000); return () => clearInterval(t); }, []);
  useEffect(() => { setLocal(null); }, [state.data]);

  const data = local || state.data;
  const queues = data?.queues || [];
  const selected = useMemo(() => queues.find(q => q.id === selectedId) || null, [queues, selectedId]);

  const move = async (queue, task, from, to) => {
    const n = (queue.entries || []).length;
    if (to < 0 || to >= n || to === from) return;
    setLocal({ ...data, queues: queues.map(q => (q.id === queue.id ? { ...q, entries: moved(q.entries, from, to) } : q)) });
    await runAction(() => moveCall(queue.id, task, from, to, n));
    state.reload();
  };
  const remove = async (queue, task, name) => {
    const r = await runAction(() => call('queues.remove_task', { queue: queue.id, task, update_task_status: true }), `"${name || task}" removed from ${queue.name}`);
    if (r !== undefined) state.reload();
  };
  const create = async () => {
    const name = await promptText({ title: 'New queue', label: 'Queue name', confirm: 'Create' });
    if (!name) return;
    const r = await runAction(() => call('queues.create', { name }), `Queue "${name}" created`);
    if (r !== undefined) state.reload();
  };
  const rename = async queue => {
    const name = await promptText({ title: 'Rename queue', label: 'Queue name', value: queue.name, confirm: 'Rename' });
    if (!name || name === queue.name) return;
    const r = await runAction(() => call('queues.update', { queue: queue.id, name }), `Queue renamed to "${name}"`);
    if (r !== undefined) state.reload();
  };
  const del = async queue => {
    const n = (queue.entries || []).length;
    const ok = await confirmAction({
      title: `Delete queue "${queue.name}"?`,
      body: n ? `It holds ${n} task${n === 1 ? '' : 's'}; they leave the queue.` : 'The queue is empty.',
      confirm: 'Delete',
      danger: true,
    });
    if (!ok) return;
    const r = await runAction(() => call('queues.delete', { queue: queue.id, force: n > 0 }), `Queue "${queue.name}" deleted`);
    if (r === undefined) return;
    if (selectedId === queue.id) setSelectedId(null);
    state.reload();
  };

  return (
    <div class="queues-page">
      <div class="page-head">
        <h1>Queues</h1>
        <span class="muted">{data ? `${queues.length} queue${queues.length === 1 ? '' : 's'}, ${queues.reduce((n, q) => n + (q.entries || []).length, 0)} tasks waiting` : ''}</span>
        <span class="spacer" />
        <button class="btn btn-primary" data-action="create-queue" onClick={create}>New queue</button>
      </div>
      {data && <QueueMetrics queue={selected} queues={queues} onClear={() => setSelectedId(null)} />}
      {state.error && <ErrorBox error={state.error} retry={state.reload} />}
      {!data && !state.error && <Spinner />}
      {data && queues.length === 0 && <div class="panel empty">No queues yet. Create one, or start an agent: clearml-agent daemon --queue default.</div>}
      <div class="queue-list">
        {queues.map(q => (
          <QueueCard key={q.id} queue={q} tasks={data.tasks} now={now} selected={q.id === selectedId}
            onSelect={() => setSelectedId(id => (id === q.id ? null : q.id))}
            onMove={(task, from, to) => move(q, task, from, to)}
            onRemove={(task, name) => remove(q, task, name)}
            onRename={() => rename(q)} onDelete={() => del(q)} />
        ))}
      </div>
    </div>
  );
}
