// MLflow 3 traces of a project (/projects/<p>/traces) and one trace
// (/projects/<p>/traces/<id>): read through traces.get_all and
// traces.get_by_id. Everything a trace holds is the caller's data: shown
// as text only (preact escapes it), never as markup or code.

import { useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Link } from '../router.jsx';
import { ErrorBox, NotFound, Spinner, isNotFound } from '../components/feedback.jsx';
import { fmtDate } from '../format.js';
import { ExperimentsHead, useProjectHead } from './experiments-head.jsx';
import { fmtMs, spanTree } from './traces-tree.js';
import './traces.css';

const pageSize = 50;
const traceHref = (p, id) => `/projects/${encodeURIComponent(p)}/traces/${encodeURIComponent(id)}`;

const userTags = tags => Object.entries(tags || {}).filter(([k]) => !k.startsWith('mlflow.'));

export function TracesPage({ project }) {
  const head = useProjectHead(project);
  const [page, setPage] = useState(0);
  const rows = useApi(signal => call('traces.get_all', { project, page, page_size: pageSize }, { signal }), [project, page]);
  if (head.error && isNotFound(head.error)) return <NotFound what="project" id={project} />;
  const traces = rows.data?.traces;
  return (
    <div class="xt-page">
      {head.data && <ExperimentsHead head={head.data} tab="traces" />}
      {rows.error && <ErrorBox error={rows.error} retry={rows.reload} />}
      {traces === undefined && !rows.error && <Spinner label="Loading traces…" />}
      {traces !== undefined && (
        <>
          <table class="tr-table" data-testid="traces-table">
            <thead><tr><th>Time</th><th>Name</th><th>Request</th><th>State</th><th>Duration</th><th>Tags</th></tr></thead>
            <tbody>
              {traces.map(t => (
                <tr key={t.id} data-trace-id={t.id}>
                  <td class="nowrap">{fmtDate(t.request_time)}</td>
                  <td><Link href={traceHref(project, t.id)}>{t.name || t.id}</Link></td>
                  <td class="tr-preview">{t.request_preview || ''}</td>
                  <td><span class={`tr-state tr-${(t.state || '').toLowerCase()}`}>{t.state}</span></td>
                  <td class="nowrap">{fmtMs(t.duration_ms)}</td>
                  <td>{userTags(t.tags).map(([k, v]) => <span key={k} class="xt-chip">{k}={v}</span>)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {traces.length === 0 && <div class="empty" data-testid="empty">{page ? 'No more traces.' : 'No traces in this project yet.'}</div>}
          <div class="xt-pager">
            <span class="spacer" />
            <button type="button" class="btn btn-small" disabled={page === 0} onClick={() => setPage(p => Math.max(0, p - 1))}>‹ Previous</button>
            <span class="small">Page {page + 1}</span>
            <button type="button" class="btn btn-small" disabled={traces.length < pageSize} onClick={() => setPage(p => p + 1)}>Next ›</button>
          </div>
        </>
      )}
    </div>
  );
}

// attrText shows an attribute: MLflow keeps values as JSON text.
function attrText(v) {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') return JSON.stringify(v, null, 2);
  try { return JSON.stringify(JSON.parse(v), null, 2); } catch { return v; }
}

export function TracePage({ project, trace }) {
  const head = useProjectHead(project);
  const got = useApi(signal => call('traces.get_by_id', { trace }, { signal }), [trace]);
  const [picked, setPicked] = useState(0);
  if (got.error && isNotFound(got.error)) return <NotFound what="trace" id={trace} />;
  const t = got.data?.trace;
  const rows = got.data ? spanTree(got.data.spans || []) : [];
  const t0 = rows.length ? Math.min(...rows.map(r => Number(r.span.start_time_unix_nano) || 0)) : 0;
  const total = rows.length ? Math.max(...rows.map(r => Number(r.span.end_time_unix_nano) || 0)) - t0 : 0;
  const sel = rows[picked]?.span;
  return (
    <div class="xt-page">
      {head.data && <ExperimentsHead head={head.data} tab="traces" />}
      {got.error && <ErrorBox error={got.error} retry={got.reload} />}
      {!got.data && !got.error && <Spinner label="Loading the trace…" />}
      {t && (
        <>
          <h2 data-testid="trace-name">{t.name || t.id}</h2>
          <div class="muted small">{t.id} · {t.state} · {fmtDate(t.request_time)} · {fmtMs(t.duration_ms)}</div>
          <div class="tr-split">
            <ol class="tr-spans" data-testid="span-tree">
              {rows.map((r, i) => {
                const start = (Number(r.span.start_time_unix_nano) - t0) / 1e6;
                const dur = (Number(r.span.end_time_unix_nano) - Number(r.span.start_time_unix_nano)) / 1e6;
                const left = total > 0 ? (100 * start * 1e6) / total : 0;
                const width = total > 0 ? Math.max(0.5, (100 * dur * 1e6) / total) : 100;
                return (
                  <li key={i} class={i === picked ? 'on' : ''} style={{ paddingLeft: `${r.depth * 16 + 6}px` }} onClick={() => setPicked(i)} data-span-name={r.span.name}>
                    <span class="tr-name">{r.span.name}</span>
                    <span class="muted small"> {fmtMs(dur)}</span>
                    <span class="tr-bar"><span style={{ left: `${left}%`, width: `${width}%` }} /></span>
                  </li>
                );
              })}
              {!rows.length && <li class="muted">No spans stored for this trace.</li>}
            </ol>
            {sel && (
              <div class="tr-detail" data-testid="span-detail">
                <h3>{sel.name}</h3>
                <div class="muted small">{sel.status?.code || ''}</div>
                <h4>Inputs</h4>
                <pre data-testid="span-inputs">{attrText(sel.attributes?.['mlflow.spanInputs'])}</pre>
                <h4>Outputs</h4>
                <pre data-testid="span-outputs">{attrText(sel.attributes?.['mlflow.spanOutputs'])}</pre>
                <h4>Attributes</h4>
                <pre>{Object.entries(sel.attributes || {}).filter(([k]) => k !== 'mlflow.spanInputs' && k !== 'mlflow.spanOutputs').map(([k, v]) => `${k}: ${attrText(v)}`).join('\n')}</pre>
              </div>
            )}
          </div>
          {userTags(t.tags).length > 0 && <div class="xt-children"><span class="muted small">Tags:</span>{userTags(t.tags).map(([k, v]) => <span key={k} class="xt-chip">{k}={v}</span>)}</div>}
        </>
      )}
    </div>
  );
}
