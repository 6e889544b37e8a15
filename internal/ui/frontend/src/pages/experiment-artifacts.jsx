// The artifacts tab: each artifact with its type, size, hash and preview,
// and a download link through the file server (under /files/ of this
// origin, where the session cookie authorises it).

import { useEffect, useRef } from 'preact/hooks';
import { fmtBytes, fmtDate } from '../format.js';
import { urlPolicy } from '../safeurl.js';
import { BlockedUrl, ExternalUrl, useUrlPolicy } from '../safe-link.jsx';

// useFileMatcher is the page's URL policy (safeurl.js), known once
// configuration.json has been read.
export const useFileMatcher = useUrlPolicy;

// DownloadLink links a stored URL when it is a file of our file server
// (through /files/ of this origin); a URL of another host is shown with an
// Open that warns first; anything else is text. A file:// URL lives on the
// machine that ran the task.
export function DownloadLink({ uri, match, label = 'Download' }) {
  if (!uri) return <span class="muted small">no file</span>;
  if (/^file:/i.test(uri)) return <span class="muted small" title={uri}>local to the machine that ran it</span>;
  const c = (match || urlPolicy())(uri);
  if (c.kind === 'external') return <ExternalUrl href={c.href} />;
  if (c.kind !== 'files') return <BlockedUrl raw={uri} c={c} />;
  let name = 'download';
  try { name = decodeURIComponent(uri.split(/[?#]/)[0].split('/').pop()) || name; } catch { /* keep */ }
  return <a class="btn btn-small" href={c.href} download={name} data-testid="download" rel="noreferrer">{label}</a>;
}

function Artifact({ a, match, focused }) {
  const ref = useRef(null);
  useEffect(() => { if (focused && ref.current) ref.current.scrollIntoView({ block: 'start' }); }, [focused]);
  const td = a.type_data || {};
  return (
    <div class={focused ? 'panel panel-pad xp-artifact xp-focus' : 'panel panel-pad xp-artifact'} ref={ref} data-testid="artifact" data-name={a.key}>
      <div class="xp-section-head">
        <h3>{a.key}</h3>
        {a.type && <span class="badge badge-blue" data-testid="artifact-type">{a.type}</span>}
        {a.mode && a.mode !== 'output' && <span class="badge badge-grey">{a.mode}</span>}
        <span class="spacer" />
        <DownloadLink uri={a.uri} match={match} />
      </div>
      <dl class="kv">
        {a.content_size !== undefined && a.content_size !== null && <><dt>Size</dt><dd data-testid="artifact-size">{fmtBytes(a.content_size)}</dd></>}
        {td.content_type && <><dt>Content type</dt><dd>{td.content_type}</dd></>}
        {a.hash && <><dt>Hash</dt><dd><code class="xp-hash" title={a.hash}>{a.hash}</code></dd></>}
        {a.timestamp && <><dt>Uploaded</dt><dd>{fmtDate(a.timestamp * 1000)}</dd></>}
        {a.uri && <><dt>Location</dt><dd><code class="xp-uri">{a.uri}</code></dd></>}
      </dl>
      {td.preview && <><h4 class="muted small">Preview</h4><pre class="code xp-code xp-preview" data-testid="artifact-preview">{td.preview}</pre></>}
    </div>
  );
}

export function ArtifactsTab({ task, item }) {
  const match = useFileMatcher();
  const list = (task.execution?.artifacts || []).slice().sort((a, b) => (a.mode || '').localeCompare(b.mode || '') || a.key.localeCompare(b.key));
  if (!list.length) return <div class="panel empty" data-testid="no-artifacts">This experiment has no artifacts.</div>;
  return (
    <div class="xp-stack" data-testid="artifacts">
      {list.map(a => <Artifact key={(a.mode || '') + '/' + a.key} a={a} match={match} focused={a.key === item} />)}
    </div>
  );
}
