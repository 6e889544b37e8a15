// Compare 2 to 50 experiments (/compare?ids=a,b,...): who is compared
// (one colour each, used by every chart), their scalars overlaid, the
// hyper-parameter and metric diff, a parallel-coordinates chart, plots
// side by side and debug samples.

import { useEffect, useState } from 'preact/hooks';
import { useApi } from '../hooks.js';
import { Link, navigate } from '../router.jsx';
import { ErrorBox, NotFound, Spinner } from '../components/feedback.jsx';
import { StatusBadge } from '../components/status.jsx';
import { ScalarsPanel } from '../charts/scalars.jsx';
import { PlotsPanel } from '../charts/plots.jsx';
import { DebugImagesPanel } from '../charts/debug-images.jsx';
import { colorAt } from '../charts/palette.js';
import { CompareParams } from './compare-params.jsx';
import { ParallelCoords } from './compare-parcoords.jsx';
import { MAX_COMPARE, MIN_COMPARE, compareHref, fetchTasks, parseIds } from './compare-data.js';
import './compare.css';

const SECTIONS = [
  { id: 'scalars', label: 'Scalars' },
  { id: 'params', label: 'Hyper-parameters & metrics' },
  { id: 'parcoords', label: 'Parallel coordinates' },
  { id: 'plots', label: 'Plots' },
  { id: 'debug', label: 'Debug samples' },
];

// Debug samples of many experiments are many images: past this count
// they load when asked.
const AUTO_DEBUG_MAX = 6;
const POLL_MS = 10000;
// Past this many experiments the header shows compact chips.
const COMPACT_OVER = 9;
const running = t => t.status === 'in_progress' || t.status === 'queued';

export function ComparePage({ search }) {
  const ids = parseIds(search);
  // Running experiments change status and metrics: poll while any runs.
  const [live, setLive] = useState(false);
  const st = useApi(signal => fetchTasks(ids, signal), [ids.join(',')],
    { enabled: ids.length >= MIN_COMPARE && ids.length <= MAX_COMPARE, poll: live ? POLL_MS : 0 });
  useEffect(() => setLive(!!st.data?.tasks.some(running)), [st.data]);

  if (ids.length < MIN_COMPARE || ids.length > MAX_COMPARE) {
    return (
      <div class="compare">
        <h1>Compare experiments</h1>
        <div class="empty" data-testid="compare-bad-ids">
          Choose {MIN_COMPARE} to {MAX_COMPARE} experiments to compare (you gave {ids.length}): select them in an
          experiments table and press Compare. <Link href="/experiments">Experiments</Link>
        </div>
      </div>
    );
  }
  if (st.error && st.data === undefined) return <ErrorBox error={st.error} retry={st.reload} />;
  if (st.data === undefined) return <Spinner label="Loading experiments…" />;
  const { tasks, missing } = st.data;
  if (!tasks.length) return <NotFound what="experiments" id={ids.join(', ')} />;
  return <CompareBody tasks={tasks} missing={missing} />;
}

function CompareBody({ tasks, missing }) {
  const [showDebug, setShowDebug] = useState(tasks.length <= AUTO_DEBUG_MAX);
  const ids = tasks.map(t => t.id);
  const remove = id => navigate(compareHref(ids.filter(x => x !== id)));
  const jump = (e, id) => { e.preventDefault(); document.getElementById(`cmp-${id}`)?.scrollIntoView({ behavior: 'smooth', block: 'start' }); };
  return (
    <div class="compare">
      <div class="page-head">
        <h1>Compare {tasks.length} experiments</h1>
        <span class="spacer" />
        <nav class="cmp-nav" aria-label="Sections">
          {SECTIONS.map(s => <a key={s.id} href={`#cmp-${s.id}`} onClick={e => jump(e, s.id)} class="tab">{s.label}</a>)}
        </nav>
      </div>
      {missing.length > 0 && (
        <div class="error-box" role="alert" data-testid="compare-missing">
          Not found or not visible: {missing.map(id => <code key={id}>{id} </code>)}
        </div>
      )}
      <ul class={tasks.length > COMPACT_OVER ? 'cmp-tasks cmp-compact' : 'cmp-tasks'} data-testid="compare-tasks">
        {tasks.map((t, i) => (
          <li key={t.id} class="cmp-task" data-task-id={t.id} style={{ '--task-color': colorAt(i) }}>
            <span class="swatch" style={{ background: colorAt(i) }} />
            <Link href={`/projects/${t.project?.id || '*'}/experiments/${t.id}`} class="cmp-task-name" title={t.name}>{t.name}</Link>
            <StatusBadge status={t.status} />
            <span class="muted small" title={t.project?.name}>{t.project?.name}</span>
            <button class="btn btn-ghost btn-small cmp-remove" onClick={() => remove(t.id)} disabled={tasks.length <= MIN_COMPARE}
              title={tasks.length <= MIN_COMPARE ? `At least ${MIN_COMPARE} experiments are compared` : 'Remove from the comparison'} aria-label={`Remove ${t.name}`} data-action="remove-compared">✕</button>
          </li>
        ))}
      </ul>

      <section id="cmp-scalars" class="cmp-section-block">
        <h2>Scalars</h2>
        <div data-testid="compare-scalars"><ScalarsPanel tasks={tasks} /></div>
      </section>
      <section id="cmp-params" class="cmp-section-block">
        <h2>Hyper-parameters &amp; metrics</h2>
        <CompareParams tasks={tasks} />
      </section>
      <section id="cmp-parcoords" class="cmp-section-block">
        <h2>Parallel coordinates</h2>
        <ParallelCoords tasks={tasks} />
      </section>
      <section id="cmp-plots" class="cmp-section-block" data-testid="compare-plots">
        <h2>Plots</h2>
        <PlotsPanel tasks={tasks} />
      </section>
      <section id="cmp-debug" class="cmp-section-block" data-testid="compare-debug">
        <h2>Debug samples</h2>
        {showDebug ? <DebugImagesPanel tasks={tasks} /> : (
          <div class="empty">
            <button class="btn" onClick={() => setShowDebug(true)} data-action="show-debug">Show the debug samples of {tasks.length} experiments</button>
          </div>
        )}
      </section>
    </div>
  );
}
