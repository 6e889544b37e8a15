// The row of action buttons over the table, enabled by what is selected.

import { useState } from 'preact/hooks';
import { toast } from '../components/toast.jsx';
import { actions } from './experiments-actions.jsx';

export function ActionBar({ selected, onDone, onClear }) {
  const [busy, setBusy] = useState(null);
  const tasks = [...selected.values()];
  const ids = tasks.map(t => t.id);
  const names = Object.fromEntries(tasks.map(t => [t.id, t.name]));
  const run = async a => {
    setBusy(a.id);
    try {
      if (await a.run(ids, tasks, names)) onDone();
    } catch (e) {
      toast(e.message || String(e), 'error');
      onDone();
    } finally {
      setBusy(null);
    }
  };
  return (
    <div class="toolbar xt-actions" data-testid="actions">
      <span class={tasks.length ? 'xt-count' : 'xt-count muted'} data-testid="selected-count">
        {tasks.length ? `${tasks.length} selected` : 'Select experiments to act on them'}
      </span>
      {tasks.length > 0 && <button type="button" class="btn btn-ghost btn-small" onClick={onClear}>Clear</button>}
      <span class="xt-sep" />
      {actions.map(a => (
        <button key={a.id} type="button" data-action={a.id} class={a.danger ? 'btn btn-small xt-danger' : 'btn btn-small'}
          disabled={!tasks.length || !!busy || !a.enabled(tasks)} onClick={() => run(a)}>
          {busy === a.id ? '…' : a.label}
        </button>
      ))}
    </div>
  );
}
