// Debug samples (Logger.report_image, report_media): thumbnails grouped by
// metric and iteration, newest first, a few iterations a page; a click
// opens the full view, which steps through variants and iterations with
// the server's sample navigation (get/next_debug_image_sample), as the
// ClearML web app does.

import { useEffect, useRef, useState } from 'preact/hooks';
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
  // Comparing: one section per metric any of them reported, the
  // experiments side by side in it, row by row by iteration.
  const metrics = [...new Set([...st.data.values()].flat())].sort();
  return (
    <div class="debug-images">
      {tasks.length === 1
        ? st.data.get(ids[0]).map(m => <MetricImages key={`${ids[0]}\u0000${m}`} tasks={tasks} metric={m} onOpen={setViewing} />)
        : metrics.map(m => <MetricImages key={`${ids.join(',')}\u0000${m}`} tasks={tasks} metric={m} onOpen={setViewing} />)}
      {viewing && <ImageViewer start={viewing} onClose={() => setViewing(null)} />}
    </div>
  );
}

// fetchImagePage reads the next ITERS_PER_PAGE iterations of each task's
// metric (the first page without a scroll id) and returns them by task.
async function fetchImagePage(tasks, metric, scroll) {
  const d = await call('events.debug_images', {
    metrics: tasks.map(t => ({ task: t.id, metric })), iters: ITERS_PER_PAGE,
    scroll_id: scroll || null, navigate_earlier: true, refresh: !scroll,
  });
  const byTask = new Map();
  for (const m of d?.metrics || []) {
    const its = (m.iterations || []).filter(it => it.events?.length);
    if (its.length) byTask.set(m.task, its);
  }
  return { scroll: d?.scroll_id, byTask };
}

// MetricImages pages through one metric's iterations, newest first, for
// one task or side by side for several. The page after the shown one is
// read ahead, so "Older" is enabled only when there is something older.
// The server keeps the position of a scroll id, so the reads of one chain
// are made one after the other; "Newest" starts a new chain.
function MetricImages({ tasks, metric, onOpen }) {
  const policy = useUrlPolicy();
  // pages: the pages read so far (the last one may be the read-ahead);
  // done: the read after the last page found nothing.
  const [view, setView] = useState({ pages: [], at: 0, done: false, loading: true, error: null });
  const chain = useRef(0);
  const reading = useRef(false);
  const taskKey = tasks.map(t => t.id).join(',');

  const first = async () => {
    const gen = ++chain.current;
    reading.current = true;
    setView(v => ({ ...v, loading: true, error: null }));
    try {
      const p = await fetchImagePage(tasks, metric, null);
      if (gen !== chain.current) return;
      setView({ pages: [p], at: 0, done: p.byTask.size === 0, loading: false, error: null });
    } catch (error) {
      if (gen === chain.current) setView(v => ({ ...v, loading: false, error }));
    } finally {
      if (gen === chain.current) reading.current = false;
    }
  };
  useEffect(() => { first(); }, [taskKey, metric]); // eslint-disable-line react-hooks/exhaustive-deps

  // Read ahead when the shown page is the last one read.
  const { pages, at, done } = view;
  useEffect(() => {
    if (!pages.length || done || at + 1 < pages.length || reading.current) return;
    const gen = chain.current;
    reading.current = true;
    setView(v => ({ ...v, loading: true }));
    fetchImagePage(tasks, metric, pages[pages.length - 1].scroll).then(p => {
      if (gen !== chain.current) return;
      setView(v => (p.byTask.size ? { ...v, pages: [...v.pages, p], loading: false } : { ...v, done: true, loading: false }));
    }, error => {
      if (gen === chain.current) setView(v => ({ ...v, loading: false, error }));
    }).finally(() => { if (gen === chain.current) reading.current = false; });
  }, [pages, at, done]); // eslint-disable-line react-hooks/exhaustive-deps

  const page = pages[at];
  const hasOlder = at + 1 < pages.length;
  const compare = tasks.length > 1;
  const open = (t, it, ev) => onOpen({ task: t.id, metric, variant: ev.variant, iteration: ev.iter ?? it.iter, ev });
  const thumbs = (t, it) => (
    <div class="image-row">
      {it.events.map(ev => <Thumb key={`${ev.variant}\u0000${ev.url}`} ev={ev} onOpen={() => open(t, it, ev)} policy={policy} />)}
    </div>
  );
  const iterations = page ? [...new Set([...page.byTask.values()].flat().map(it => it.iter))].sort((a, b) => b - a) : [];
  return (
    <section class="image-group" data-metric={metric} data-page={at + 1} data-older={hasOlder ? 'yes' : done ? 'none' : 'looking'}>
      <div class="image-pager">
        <h3 style={{ margin: 0 }}>{metric}</h3>
        <span class="spacer" />
        <button class="btn btn-small" onClick={first} disabled={view.loading && !page} title="Newest iterations" data-action="images-newest">Newest</button>
        <button class="btn btn-small" onClick={() => setView(v => ({ ...v, at: v.at - 1 }))} disabled={at === 0} data-action="images-newer">‹ Newer</button>
        <button class="btn btn-small" onClick={() => setView(v => ({ ...v, at: v.at + 1 }))} disabled={!hasOlder}
          title={hasOlder ? 'Older iterations' : done ? 'No older iterations' : 'Looking for older iterations…'} data-action="images-older">Older ›</button>
      </div>
      {view.error && <ErrorBox error={view.error} retry={first} />}
      {!page && view.loading && <Spinner />}
      {page && !iterations.length && <div class="empty">No images for this metric.</div>}
      {page && !compare && iterations.length > 0 && (page.byTask.get(tasks[0].id) || []).map(it => (
        <div key={it.iter} class="image-iteration" data-iter={it.iter}>
          <div class="image-iter">Iteration {it.iter}</div>
          {thumbs(tasks[0], it)}
        </div>
      ))}
      {page && compare && iterations.length > 0 && (
        <div class="image-compare-wrap">
          <div class="image-compare" style={{ gridTemplateColumns: `minmax(84px, auto) repeat(${tasks.length}, minmax(180px, 1fr))` }}>
            <div class="image-compare-corner" />
            {tasks.map((t, i) => (
              <div key={t.id} class="image-compare-head" data-task-id={t.id} title={t.name}>
                <span class="swatch" style={{ background: colorAt(i) }} /> {t.name}
              </div>
            ))}
            {iterations.map(iter => [
              <div key={`i${iter}`} class="image-iter image-compare-iter">Iteration {iter}</div>,
              ...tasks.map(t => {
                const it = (page.byTask.get(t.id) || []).find(x => x.iter === iter);
                return (
                  <div key={`${iter}\u0000${t.id}`} class="image-compare-cell" data-task-id={t.id} data-iter={iter}>
                    {it ? thumbs(t, it) : <span class="muted small">–</span>}
                  </div>
                );
              }),
            ])}
          </div>
        </div>
      )}
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
