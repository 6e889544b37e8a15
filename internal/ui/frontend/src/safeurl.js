// The one gate for URLs that come from stored data (debug samples, plots,
// artifacts, models): every href and src the UI builds from them passes
// through classifyUrl first. Anyone who can report an event can store any
// string as a URL, and the page that shows it runs with the viewer's
// session, so a stored URL must never make the viewer's browser act on the
// API (an <img src="/api/auth.edit_user?...">), run script (javascript:,
// data:text/html), or reach other hosts unasked.
//
// A stored URL is one of:
//   files     a file on Trove's file server: a path under /files/ of this
//             origin, or a URL of the file server's public address
//             (configuration.json's fileBaseUrl, also under the page's host
//             or a loopback name), which is fetched as /files/<path> here,
//             where the session cookie authorises it. Shown and linked.
//   external  an http(s) URL of another host. Never loaded by the page;
//             shown as text with an "Open" that asks first (safe-link.jsx).
//   blocked   anything else: other schemes (javascript:, vbscript:, data:,
//             blob:, file:, s3:, ...), protocol-relative "//host" and
//             backslash tricks, relative paths, URLs with credentials, paths
//             of this origin outside /files/ (checked on the resolved and
//             percent-decoded path: /api/..., /files/../api/..., /%61pi/...),
//             and other ports of this host (the API port among them).

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

const portOf = u => u.port || (u.protocol === 'https:' ? '443' : '80');

// fileServerMatcher builds the test for "is this URL on our file server"
// from configuration.json's fileBaseUrl and the page's host: the same port
// on the configured host, the page's host or a loopback name (the SDK on
// the server's machine says localhost or 127.0.0.1). It returns the path
// under /files/ of this origin, or null.
export function fileServerMatcher(fileBaseUrl, pageHost) {
  let base;
  try { base = new URL(fileBaseUrl); } catch { return () => null; }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') return () => null;
  const port = portOf(base);
  const hosts = new Set([base.hostname, pageHost, ...LOOPBACK].filter(Boolean).map(h => h.toLowerCase()));
  return uri => {
    let u;
    try { u = new URL(uri); } catch { return null; }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (portOf(u) !== port || !hosts.has(u.hostname.toLowerCase())) return null;
    return '/files' + u.pathname + u.search;
  };
}

// isFilesPath tells whether a path of this origin is on the file server:
// under /files/ once percent-decoded, with no "." or ".." segment (the
// server's router would clean them away and redirect elsewhere) and no
// backslash or NUL.
export function isFilesPath(pathname) {
  let decoded;
  try { decoded = decodeURIComponent(pathname); } catch { return false; }
  if (/[\\\0]/.test(decoded)) return false;
  if (!decoded.startsWith('/files/')) return false;
  return !decoded.split('/').some(seg => seg === '.' || seg === '..');
}

// makeUrlPolicy returns the classifier for one page: page is its location
// ({origin, hostname}), config the parsed configuration.json (may be {}).
export function makeUrlPolicy(config, page) {
  const origin = page.origin;
  const pageHost = (page.hostname || '').toLowerCase();
  const onFileServer = fileServerMatcher(config?.fileBaseUrl, pageHost);
  // Hosts that are this server: the page's, the configured public ones and
  // loopback. A URL there that is not the file server is another of
  // Trove's ports (the API's) and is refused, whatever port it names.
  const ours = new Set([pageHost, ...LOOPBACK]);
  for (const u of [config?.fileBaseUrl, config?.displayedServerUrls?.apiServer, config?.displayedServerUrls?.filesServer]) {
    try { ours.add(new URL(u).hostname.toLowerCase()); } catch { /* not set */ }
  }
  const blocked = (reason, scheme) => ({ kind: 'blocked', reason, scheme });

  return function classify(raw) {
    if (typeof raw !== 'string') return blocked('empty');
    // Browsers drop leading and trailing C0 controls and spaces, and tabs
    // and newlines anywhere: a stored URL holding any of them is refused
    // rather than guessed at.
    const s = raw.trim();
    if (!s) return blocked('empty');
    if (/[\u0000-\u001f\u007f\\]/.test(s)) return blocked('characters');
    const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(s);
    if (scheme) {
      const name = scheme[1].toLowerCase();
      if (name !== 'http' && name !== 'https') return blocked('scheme', name);
    } else if (s.startsWith('//')) {
      return blocked('protocol-relative');
    } else if (!s.startsWith('/')) {
      return blocked('relative');
    }
    let u;
    try { u = new URL(s, origin); } catch { return blocked('invalid'); }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return blocked('scheme', u.protocol.slice(0, -1));
    if (u.username || u.password) return blocked('credentials');
    if (u.origin === origin) {
      return isFilesPath(u.pathname) ? { kind: 'files', href: u.pathname + u.search + u.hash } : blocked('not-files');
    }
    const mapped = onFileServer(u.href);
    if (mapped !== null) {
      return isFilesPath(new URL(mapped, origin).pathname) ? { kind: 'files', href: mapped } : blocked('not-files');
    }
    if (ours.has(u.hostname.toLowerCase())) return blocked('this-server');
    return { kind: 'external', href: u.href };
  };
}

// The page's policy: until configuration.json has been read no URL of the
// file server's address is recognised (only /files/ paths of this origin).
let current = null;
let loading = null;
const pageLocation = () => (typeof location !== 'undefined' ? location : { origin: 'http://invalid', hostname: 'invalid' });

export function urlPolicy() {
  if (!current) current = makeUrlPolicy({}, pageLocation());
  return current;
}

// loadUrlPolicy reads configuration.json once and resolves to the page's
// policy; an older server without it keeps the strict one.
export function loadUrlPolicy() {
  if (!loading) {
    loading = fetch('/configuration.json', { credentials: 'same-origin' })
      .then(r => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then(c => { current = makeUrlPolicy(c && typeof c === 'object' ? c : {}, pageLocation()); return current; });
  }
  return loading;
}

// classifyUrl classifies with the page's policy as it stands.
export function classifyUrl(raw) {
  return urlPolicy()(raw);
}

// fileHref is the href or src for a stored URL when it is a file on our
// file server, else null.
export function fileHref(raw, classify = urlPolicy()) {
  const c = classify(raw);
  return c.kind === 'files' ? c.href : null;
}

// --- plotly figures ---------------------------------------------------------

// Plotly renders a small HTML subset in every text field (titles,
// annotations, hover and tick text), <a href> included, as links of this
// page. Links are removed (their text stays), and so is any tag that could
// reach a URL through CSS (url(), image-set(), @import, escapes).
const TAG = /<[^<>]*>/g;
const LINK_TAG = /^<\s*\/?\s*a(?![a-z0-9])/i;
const CSS_URL = /url\s*\(|image-set|@import|expression\s*\(|\\|javascript:|href|src\s*=/i;

export function neutraliseMarkup(s) {
  if (typeof s !== 'string' || !s.includes('<')) return s;
  return s.replace(TAG, tag => (LINK_TAG.test(tag) || CSS_URL.test(tag) ? '' : tag));
}

// URL-bearing figure attributes: images (layout.images[].source, the image
// trace's source), map layers' sources and styles. Other keys holding a
// URL are only ever shown as text.
const URL_KEYS = new Set(['source']);
const DROP = Symbol('drop');
const MAP_KEYS = new Set(['mapbox', 'map']);
const NAMED_STYLE = /^[a-z][a-z0-9-]*$/i;

// sanitizeFigure returns a copy of a stored figure that plotly can draw
// without loading anything but our file server's files and without links:
// every URL attribute goes through the policy (files are rewritten to
// /files/..., anything else is dropped, with the layout image or map layer
// that held it), text fields lose their links.
export function sanitizeFigure(figure, classify = urlPolicy()) {
  const walk = (v, key, parentKey) => {
    if (typeof v === 'string') {
      if (URL_KEYS.has(key)) return fileHref(v, classify) ?? undefined;
      if (key === 'style' && MAP_KEYS.has(parentKey) && !NAMED_STYLE.test(v)) return 'white-bg';
      return neutraliseMarkup(v);
    }
    if (Array.isArray(v)) {
      if (URL_KEYS.has(key)) return v.map(x => (typeof x === 'string' ? fileHref(x, classify) : undefined)).filter(Boolean);
      const out = [];
      for (const x of v) {
        const w = walk(x, key, parentKey);
        // An image or map layer whose URL was refused goes altogether.
        if (w === DROP) continue;
        out.push(w);
      }
      return out;
    }
    if (v && typeof v === 'object') {
      if (key === 'style' && MAP_KEYS.has(parentKey)) return 'white-bg';
      const out = {};
      for (const [k, x] of Object.entries(v)) {
        const w = walk(x, k, key);
        if (w === undefined) {
          if (URL_KEYS.has(k) && (key === 'images' || key === 'layers')) return DROP;
          continue;
        }
        if (w === DROP) continue;
        out[k] = w;
      }
      return out;
    }
    return v;
  };
  if (!figure || typeof figure !== 'object') return figure;
  const out = walk(figure, '', '');
  return out === DROP ? {} : out;
}
// PLOTLY_CONFIG keeps plotly from adding links of its own (to Chart Studio).
export const PLOTLY_CONFIG = Object.freeze({
  responsive: true, displaylogo: false, showLink: false, sendData: false, showEditInChartStudio: false, showSendToCloud: false, linkText: '',
});
