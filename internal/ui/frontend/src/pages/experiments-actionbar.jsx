// The row of action buttons over the table, enabled by what is selected:
// Compare (2 to 50 experiments) opens the compare page with them, in the
// order they were selected; the others act on the server.

import { useState } from 'preact/hooks';
import { navigate } from '../router.jsx';
import { toast } from '../components/toast.jsx';
import { actions } from './experiments-actions.jsx';
import { MAX_COMPARE, MIN_COMPARE, compareHref } from './compare-data.js';

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
      <button type="button" data-action="compare" class="btn btn-small btn-primary"
        disabled={tasks.length < MIN_COMPARE || tasks.length > MAX_COMPARE || !!busy}
        title={tasks.length > MAX_COMPARE ? `At most ${MAX_COMPARE} experiments are compared` : `Compare ${MIN_COMPARE} or more selected experiments`}
        onClick={() => navigate(compareHref(ids))}>
        Compare{tasks.length >= MIN_COMPARE ? ` (${tasks.length})` : ''}
      </button>
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
