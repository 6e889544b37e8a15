// Debug samples (Logger.report_image, report_media): thumbnails grouped by
// metric and iteration, newest first, a few iterations a page; a click
// opens the full view, which steps through variants and iterations with
// the server's sample navigation (get/next_debug_image_sample), as the
// ClearML web app does.

import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { colorAt } from './palette.js';
import { BlockedUrl, ExternalUrl, useUrlPolicy } from '../safe-link.jsx';
import './charts.css';

const ITERS_PER_PAGE = 3;
const IMAGE_EXT = /\.(png|jpe?g|gif|bmp|webp|svg|tiff?)(\?|#|$)/i;

// isImage tells by the file name whether a sample is shown as an image
// (data: URLs are stored data too and never shown: safeurl.js).
export const isImage = url => typeof url === 'string' && IMAGE_EXT.test(url);

// brokenImage marks an image that could not be loaded.
const brokenImage = e => e.currentTarget.classList.add('img-broken');

const fileLabel = url => (typeof url === 'string' && url ? url.split(/[/?#]/).filter(Boolean).pop() || url : 'no file');

// fetchImageMetrics lists each task's debug-image metrics.
async function fetchImageMetrics(taskIds, signal) {
  const d = await call('events.get_task_metrics', { tasks: taskIds, event_type: 'training_debug_image' }, { signal });
  const out = new Map(taskIds.map(id => [id, []]));
  for (const t of d?.metrics || []) out.set(t.task, [...(t.metrics || [])].sort());
  return out;
}

export function DebugImagesPanel({ tasks = [] }) {
  const ids = tasks.map(t => t.id);
  const poll = tasks.some(t => t.status === 'in_progress') ? 30000 : 0;
  const st = useApi(signal => fetchImageMetrics(ids, signal), [ids.join(',')], { poll, enabled: ids.length > 0 });
  const [viewing, setViewing] = useState(null);
  if (!ids.length) return <div class="empty">No experiment to show.</div>;
  if (st.error && st.data === undefined) return <ErrorBox error={st.error} retry={st.reload} />;
  if (st.data === undefined) return <Spinner label="Loading debug samples…" />;
  const any = [...st.data.values()].some(m => m.length);
  if (!any) return <div class="empty">No debug samples reported yet.</div>;
  const compare = tasks.length > 1;
  return (
    <div class="debug-images">
      {tasks.map((t, i) => (st.data.get(t.id) || []).length > 0 && (
        <div key={t.id} class="image-task" data-task-id={t.id}>
          {compare && <h2><span class="swatch" style={{ background: colorAt(i) }} /> {t.name}</h2>}
          {st.data.get(t.id).map(m => <MetricImages key={`${t.id}\u0000${m}`} task={t} metric={m} onOpen={setViewing} />)}
        </div>
      ))}
      {viewing && <ImageViewer start={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}

// MetricImages pages through one metric's iterations, newest first.
function MetricImages({ task, metric, onOpen }) {
  const policy = useUrlPolicy();
  const [pages, setPages] = useState([]); // [{scroll, iterations}]
  const [at, setAt] = useState(0);
  const [state, setState] = useState({ loading: true, error: null, end: false });

  const load = async (scroll, refresh) => {
    setState(s => ({ ...s, loading: true, error: null }));
    try {
      const d = await call('events.debug_images', { metrics: [{ task: task.id, metric }], iters: ITERS_PER_PAGE, scroll_id: scroll || null, navigate_earlier: true, refresh: !!refresh });
      const iterations = (d?.metrics || []).flatMap(m => m.iterations || []).filter(it => it.events?.length);
      return { scroll: d?.scroll_id, iterations };
    } catch (error) {
      setState(s => ({ ...s, loading: false, error }));
      return null;
    }
  };

  const first = async () => {
    const p = await load(null, true);
    if (!p) return;
    setPages([p]); setAt(0);
    setState({ loading: false, error: null, end: p.iterations.length < ITERS_PER_PAGE });
  };
  useEffect(() => { first(); }, [task.id, metric]); // eslint-disable-line react-hooks/exhaustive-deps

  const older = async () => {
    if (at + 1 < pages.length) { setAt(at + 1); return; }
    const p = await load(pages[pages.length - 1]?.scroll, false);
    if (!p) return;
    if (!p.iterations.length) { setState({ loading: false, error: null, end: true }); return; }
    setPages(ps => [...ps, p]); setAt(pages.length);
    setState({ loading: false, error: null, end: p.iterations.length < ITERS_PER_PAGE });
  };

  const page = pages[at];
  return (
    <section class="image-group" data-metric={metric}>
      <div class="image-pager">
        <h3 style={{ margin: 0 }}>{metric}</h3>
        <span class="spacer" />
        <button class="btn btn-small" onClick={first} disabled={state.loading} title="Newest iterations" data-action="images-newest">Newest</button>
        <button class="btn btn-small" onClick={() => setAt(at - 1)} disabled={state.loading || at === 0} data-action="images-newer">‹ Newer</button>
        <button class="btn btn-small" onClick={older} disabled={state.loading || (state.end && at === pages.length - 1)} data-action="images-older">Older ›</button>
      </div>
      {state.error && <ErrorBox error={state.error} retry={first} />}
      {!page && state.loading && <Spinner />}
      {page && !page.iterations.length && <div class="empty">No images for this metric.</div>}
      {page && page.iterations.map(it => (
        <div key={it.iter} class="image-iteration">
          <div class="image-iter">Iteration {it.iter}</div>
          <div class="image-row">
            {it.events.map(ev => <Thumb key={`${ev.variant}\u0000${ev.url}`} ev={ev} onOpen={() => onOpen({ task: task.id, metric, variant: ev.variant, iteration: ev.iter ?? it.iter, ev })} policy={policy} />)}
          </div>
        </div>
      ))}
    </section>
  );
}

// markSmall keeps tiny images (digits, masks) sharp when scaled up.
function markSmall(e) {
  const img = e.currentTarget;
  if (img.naturalWidth && img.naturalWidth < 128) img.classList.add('img-pixel');
}

// Thumb shows a sample: an image on our file server as an <img>, anything
// else as its file name (opened in the full view).
function Thumb({ ev, onOpen, policy }) {
  const c = policy(ev.url);
  return (
    <button type="button" class="thumb" onClick={onOpen} title={`${ev.variant} · iteration ${ev.iter}`} data-url-kind={c.kind}>
      {c.kind === 'files' && isImage(ev.url)
        ? <img data-testid="debug-image" src={c.href} alt={`${ev.metric} ${ev.variant} ${ev.iter}`} loading="lazy" onError={brokenImage} onLoad={markSmall} />
        : <span class="thumb-file">{fileLabel(ev.url)}</span>}
      <span class="thumb-label">{ev.variant}</span>
    </button>
  );
}

// ImageViewer is the full view: one image; previous/next step through the
// samples in order (variants, then iterations), earlier/later jump to the
// neighbouring iteration, the slider moves the same variant through its
// iterations.
function ImageViewer({ start, onClose }) {
  const policy = useUrlPolicy();
  const [cur, setCur] = useState({ ev: start.ev, scroll: null, min: null, max: null });
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const apply = d => {
    if (d?.event) setCur({ ev: d.event, scroll: d.scroll_id, min: d.min_iteration, max: d.max_iteration });
    else setCur(c => ({ ...c, scroll: d?.scroll_id || c.scroll }));
  };
  const run = async fn => {
    setBusy(true); setError(null);
    try { apply(await fn()); } catch (e) { setError(e); } finally { setBusy(false); }
  };
  const jump = iteration => run(() => call('events.get_debug_image_sample', { task: start.task, metric: cur.ev.metric, variant: cur.ev.variant, iteration, navigate_current_metric: true, refresh: true }));
  const step = (earlier, nextIteration) => cur.scroll && run(() => call('events.next_debug_image_sample', { task: start.task, scroll_id: cur.scroll, navigate_earlier: earlier, next_iteration: nextIteration }));

  useEffect(() => { jump(start.iteration); }, []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    const onKey = e => {
      if (e.key === 'Escape') onClose();
      else if (e.key === 'ArrowLeft') step(true, false);
      else if (e.key === 'ArrowRight') step(false, false);
      else if (e.key === 'ArrowDown') step(true, true);
      else if (e.key === 'ArrowUp') step(false, true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  const ev = cur.ev;
  const c = policy(ev.url);
  const ranged = cur.min !== null && cur.max !== null && cur.max > cur.min;
  return (
    <div class="lightbox" role="dialog" aria-modal="true" aria-label="Debug sample" onClick={e => { if (e.target === e.currentTarget) onClose(); }} data-testid="image-viewer">
      <div class="lightbox-title">{ev.metric} · {ev.variant} · iteration {ev.iter}</div>
      <button class="btn btn-small lightbox-close" onClick={onClose} aria-label="Close">✕</button>
      <div class="lightbox-stage">
        {c.kind === 'files' && isImage(ev.url) && <img src={c.href} alt={`${ev.metric} ${ev.variant} ${ev.iter}`} onError={brokenImage} onLoad={markSmall} />}
        {/* Never navigated to: an HTML or SVG file would run as a page of this origin. */}
        {c.kind === 'files' && !isImage(ev.url) && <a class="btn" href={c.href} download data-testid="sample-download">Download {fileLabel(ev.url)}</a>}
        {c.kind === 'external' && <ExternalUrl href={c.href} />}
        {c.kind === 'blocked' && <BlockedUrl raw={ev.url} c={c} />}
      </div>
      {error && <ErrorBox error={error} />}
      <div class="lightbox-bar">
        <button class="btn btn-small" onClick={() => step(true, false)} disabled={busy || !cur.scroll} data-action="image-prev" title="Previous sample (←)">‹ Previous</button>
        <button class="btn btn-small" onClick={() => step(true, true)} disabled={busy || !cur.scroll} data-action="image-earlier" title="The previous iteration's last sample (↓)">Earlier iteration</button>
        {ranged && (
          <label class="lightbox-slider">
            <span>{cur.min}</span>
            <input type="range" min={cur.min} max={cur.max} value={ev.iter} onChange={e => jump(Number(e.currentTarget.value))} aria-label="Iteration" data-testid="image-iteration" />
            <span>{cur.max}</span>
          </label>
        )}
        <button class="btn btn-small" onClick={() => step(false, true)} disabled={busy || !cur.scroll} data-action="image-later" title="The next iteration's first sample (↑)">Later iteration</button>
        <button class="btn btn-small" onClick={() => step(false, false)} disabled={busy || !cur.scroll} data-action="image-next" title="Next sample (→)">Next ›</button>
        {c.kind === 'files' && <a class="btn btn-small" href={c.href} download data-testid="image-download">Download</a>}
      </div>
    </div>
  );
}
