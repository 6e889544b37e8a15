// Dialogs the table's actions ask with: pick a queue, pick a project, add
// or remove tags. Each resolves with the answer, or null when cancelled.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { Spinner, ErrorBox } from '../components/feedback.jsx';

function open(Body) {
  return new Promise(resolve => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const done = v => { render(null, host); host.remove(); resolve(v); };
    render(<Body done={done} />, host);
  });
}

function Frame({ title, done, onSubmit, okLabel = 'OK', okDisabled, children }) {
  return (
    <div class="modal-backdrop" onClick={e => e.target === e.currentTarget && done(null)}>
      <form class="modal" role="dialog" aria-modal="true" aria-label={title} onSubmit={e => { e.preventDefault(); onSubmit(); }}>
        <h2>{title}</h2>
        {children}
        <div class="modal-actions">
          <button type="button" class="btn" onClick={() => done(null)}>Cancel</button>
          <button type="submit" class="btn btn-primary" data-testid="confirm" disabled={okDisabled}>{okLabel}</button>
        </div>
      </form>
    </div>
  );
}

// pickFrom lists options {id, label} from load() and resolves with the chosen id.
function pickFrom({ title, label, okLabel, load, filterable }) {
  return open(({ done }) => {
    const [items, setItems] = useState(null);
    const [error, setError] = useState(null);
    const [choice, setChoice] = useState('');
    const [text, setText] = useState('');
    useEffect(() => {
      load().then(list => { setItems(list); if (list.length) setChoice(list[0].id); }).catch(setError);
    }, []);
    const shown = (items || []).filter(it => !text || it.label.toLowerCase().includes(text.toLowerCase()));
    return (
      <Frame title={title} done={done} okLabel={okLabel} okDisabled={!choice} onSubmit={() => choice && done(choice)}>
        <ErrorBox error={error} />
        {!items && !error && <Spinner />}
        {items && !items.length && <p class="muted">Nothing to choose from.</p>}
        {items && items.length > 0 && (
          <>
            {filterable && <input type="search" class="xt-dialog-filter" placeholder="Filter…" value={text} onInput={e => setText(e.target.value)} />}
            <label class="field">{label}
              <select size={Math.min(8, Math.max(2, shown.length))} value={choice} onChange={e => setChoice(e.target.value)} data-testid="pick">
                {shown.map(it => <option key={it.id} value={it.id}>{it.label}</option>)}
              </select>
            </label>
          </>
        )}
      </Frame>
    );
  });
}

export function pickQueue() {
  return pickFrom({
    title: 'Enqueue', label: 'Queue', okLabel: 'Enqueue',
    load: async () => (await call('queues.get_all_ex', { only_fields: ['name', 'display_name'], order_by: ['name'] })).queues
      .map(q => ({ id: q.id, label: q.display_name || q.name })),
  });
}

export function pickProject() {
  return pickFrom({
    title: 'Move to project', label: 'Project', okLabel: 'Move', filterable: true,
    load: async () => (await call('projects.get_all_ex', { only_fields: ['name'], order_by: ['name'], page: 0, page_size: 500, search_hidden: false }))
      .projects.map(p => ({ id: p.id, label: p.name })),
  });
}

// editTags resolves with {add, remove}: tags typed comma-separated are
// added; tags of the selection can be ticked for removal.
export function editTags(current) {
  return open(({ done }) => {
    const [text, setText] = useState('');
    const [drop, setDrop] = useState(new Set());
    const add = text.split(',').map(s => s.trim()).filter(Boolean);
    const toggle = t => setDrop(d => { const n = new Set(d); n.has(t) ? n.delete(t) : n.add(t); return n; });
    return (
      <Frame title="Tags" done={done} okLabel="Apply" okDisabled={!add.length && !drop.size}
        onSubmit={() => done({ add, remove: [...drop] })}>
        <label class="field">Add tags (comma-separated)
          <input autoFocus value={text} onInput={e => setText(e.target.value)} data-testid="tag-input" />
        </label>
        {current.length > 0 && (
          <div class="field">Remove
            <div class="xt-tag-list">
              {current.map(t => (
                <label key={t} class="xt-check"><input type="checkbox" checked={drop.has(t)} onChange={() => toggle(t)} /> <span class="tag">{t}</span></label>
              ))}
            </div>
          </div>
        )}
      </Frame>
    );
  });
}
