// The artifacts tab: each artifact with its type, size, hash and preview,
// and a download link through the file server (under /files/ of this
// origin, where the session cookie authorises it).

import { useEffect, useRef, useState } from 'preact/hooks';
import { fmtBytes, fmtDate } from '../format.js';
import { browserUrl, loadFileServer } from './experiment-files.js';

// useFileUrls resolves the file server's matcher once per page.
export function useFileMatcher() {
  const [match, setMatch] = useState(null);
  useEffect(() => { let on = true; loadFileServer().then(m => on && setMatch(() => m)); return () => { on = false; }; }, []);
  return match;
}

// DownloadLink links a stored URL where the browser can fetch it; a
// file:// URL lives on the machine that ran the task and cannot be.
export function DownloadLink({ uri, match, label = 'Download' }) {
  if (!uri) return <span class="muted small">no file</span>;
  if (/^file:/i.test(uri)) return <span class="muted small" title={uri}>local to the machine that ran it</span>;
  const href = browserUrl(uri, match);
  const http = /^(https?:|\/)/i.test(href);
  if (!http) return <span class="muted small" title={uri}>stored at {uri.split(':')[0]}://</span>;
  const name = decodeURIComponent(uri.split('?')[0].split('/').pop() || 'download');
  return <a class="btn btn-small" href={href} download={name} data-testid="download" target={href.startsWith('/') ? undefined : '_blank'} rel="noreferrer">{label}</a>;
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
