// Components that show stored URLs through the policy of safeurl.js.

import { useEffect, useState } from 'preact/hooks';
import { confirmAction } from './components/dialog.jsx';
import { loadUrlPolicy, urlPolicy } from './safeurl.js';

// useUrlPolicy returns the page's URL classifier, re-rendering once
// configuration.json has been read (the file server's address is known).
export function useUrlPolicy() {
  const [policy, setPolicy] = useState(() => urlPolicy());
  useEffect(() => {
    let on = true;
    loadUrlPolicy().then(p => on && setPolicy(() => p));
    return () => { on = false; };
  }, []);
  return policy;
}

// openExternal opens an http(s) URL of another host in a new tab, without
// this page as opener or referrer, after the user said yes.
export async function openExternal(href) {
  const ok = await confirmAction({
    title: 'Open a link to another site?',
    body: <><p>This address was stored with the experiment by whoever reported it; Trove does not vouch for it:</p><p><code class="ext-url-text">{href}</code></p></>,
    confirm: 'Open in a new tab',
  });
  if (ok) window.open(href, '_blank', 'noopener,noreferrer');
}

// ExternalUrl shows a URL of another host as text with an Open button that
// warns first; nothing is fetched from it until then.
export function ExternalUrl({ href, label = 'Open' }) {
  return (
    <span class="ext-url" data-testid="external-url">
      <code class="ext-url-text" title={href}>{href}</code>
      <button type="button" class="btn btn-small" onClick={e => { e.stopPropagation(); openExternal(href); }} data-action="open-external">{label}…</button>
    </span>
  );
}

// BlockedUrl shows a refused URL as text only.
export function BlockedUrl({ raw, c }) {
  const why = c.reason === 'scheme' && c.scheme && !['javascript', 'vbscript', 'data', 'blob'].includes(c.scheme)
    ? `stored at ${c.scheme}://`
    : 'not a file of this server; not opened';
  return <span class="muted small blocked-url" data-testid="blocked-url" title={typeof raw === 'string' ? raw : ''}>{why}</span>;
}
