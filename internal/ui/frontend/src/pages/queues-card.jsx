// One queue: its name, workers and entries. Entries are dragged (HTML5
// drag and drop) or moved with the arrow buttons to reorder the queue.

import { useState } from 'preact/hooks';
import { Link } from '../router.jsx';
import { fmtDate, fmtDuration } from '../format.js';
import { StatusBadge } from '../components/status.jsx';

// QueueCard calls onMove(task, from, to), onRemove(task), onRename(),
// onDelete(); tasks maps a task id to {project, status} when known.
export function QueueCard({ queue, tasks, now, selected, onSelect, onMove, onRemove, onRename, onDelete }) {
  const entries = queue.entries || [];
  const [drag, setDrag] = useState(null); // {from} while an entry of this queue is dragged
  const [dropAt, setDropAt] = useState(null); // the gap (0..n) the entry would land in

  // target gives the gap an entry is dragged over: above or below its middle.
  const gapAt = (e, i) => {
    const r = e.currentTarget.getBoundingClientRect();
    return e.clientY < r.top + r.height / 2 ? i : i + 1;
  };
  const over = (e, gap) => {
    if (!drag) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (gap !== dropAt) setDropAt(gap);
  };
  const drop = e => {
    if (!drag) return;
    e.preventDefault();
    const from = drag.from;
    const gap = dropAt ?? entries.length;
    const to = gap > from ? gap - 1 : gap;
    setDrag(null);
    setDropAt(null);
    if (to !== from) onMove(entries[from].task.id, from, to);
  };
  const end = () => { setDrag(null); setDropAt(null); };
  const workers = queue.workers || [];

  return (
    <section class={`panel queue-card ${selected ? 'queue-selected' : ''}`} data-testid="queue" data-queue-id={queue.id} data-queue-name={queue.name}>
      <header class="queue-head">
        <button class="queue-title" onClick={onSelect} title="Show this queue's metrics" aria-pressed={selected}>
          <span class="queue-name">{queue.display_name || queue.name}</span>
        </button>
        {(queue.system_tags || []).includes('default') && <span class="badge badge-blue">default</span>}
        <span class="badge badge-grey" data-testid="queue-length">{entries.length} queued</span>
        <span class="spacer" />
        <button class="btn btn-ghost btn-small" data-action="rename-queue" onClick={onRename}>Rename</button>
        <button class="btn btn-ghost btn-small queue-danger" data-action="delete-queue" onClick={onDelete}>Delete</button>
      </header>
      <div class="queue-workers small">
        {workers.length
          ? <>Served by {workers.map(w => <span class="tag" key={w.key || w.name} title={w.task ? `running ${w.task.name || w.task.id}` : 'idle'}>{w.name}</span>)}</>
          : <span class="muted">No worker listens to this queue.</span>}
      </div>
      <ol class={`queue-entries ${drag ? 'queue-dragging' : ''}`} onDragOver={e => over(e, entries.length)} onDrop={drop}>
        {entries.map((en, i) => {
          const t = en.task || {};
          const info = tasks[t.id] || {};
          const waited = en.added ? now - new Date(en.added).getTime() : null;
          const gapClass = dropAt === i ? 'drop-before' : dropAt === i + 1 && i === entries.length - 1 ? 'drop-after' : '';
          return (
            <li key={t.id} class={`queue-entry ${gapClass} ${drag?.from === i ? 'queue-entry-dragged' : ''}`}
              data-testid="queue-entry" data-task-id={t.id} draggable
              onDragStart={e => { e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', t.id); setDrag({ from: i }); }}
              onDragOver={e => { e.stopPropagation(); over(e, gapAt(e, i)); }}
              onDrop={e => { e.stopPropagation(); drop(e); }}
              onDragEnd={end}>
              <span class="queue-grip" aria-hidden="true">⋮⋮</span>
              <span class="queue-pos muted">{i + 1}</span>
              <span class="queue-task">
                <Link href={`/projects/${encodeURIComponent(info.project || '*')}/experiments/${t.id}`} draggable={false}>{t.name || t.id}</Link>
                {info.status && info.status !== 'queued' && <StatusBadge status={info.status} />}
              </span>
              <span class="queue-wait muted small" title={en.added ? `queued ${fmtDate(en.added)}` : ''}>{waited !== null ? fmtDuration(Math.max(waited, 0)) : ''}</span>
              <span class="queue-entry-actions">
                <button class="btn btn-ghost btn-small" data-action="move-up" disabled={i === 0} aria-label="Move up" title="Move up" onClick={() => onMove(t.id, i, i - 1)}>↑</button>
                <button class="btn btn-ghost btn-small" data-action="move-down" disabled={i === entries.length - 1} aria-label="Move down" title="Move down" onClick={() => onMove(t.id, i, i + 1)}>↓</button>
                <button class="btn btn-ghost btn-small" data-action="dequeue" aria-label="Remove from queue" title="Remove from queue" onClick={() => onRemove(t.id, t.name)}>✕</button>
              </span>
            </li>
          );
        })}
      </ol>
      {entries.length === 0 && <div class="queue-empty muted">The queue is empty.</div>}
    </section>
  );
}
