// Stored file URLs (artifacts, models, debug images) name the file server
// as the SDK reached it ("http://localhost:8081/<path>"). The web origin
// serves the same file server under /files/, where the browser's session
// cookie authorises the download; so URLs on the file server are mapped
// there, and anything else (s3://, another host) is left as it is.

// fileServerMatcher builds the test for "is this URL on our file server"
// from configuration.json's fileBaseUrl and the page's host: the same port
// on the configured host, the page's host or a loopback name (the SDK on
// the server's machine says localhost or 127.0.0.1).
export function fileServerMatcher(fileBaseUrl, pageHost) {
  let base;
  try { base = new URL(fileBaseUrl); } catch { return () => null; }
  const port = base.port || (base.protocol === 'https:' ? '443' : '80');
  const hosts = new Set([base.hostname, pageHost, 'localhost', '127.0.0.1', '[::1]'].filter(Boolean).map(h => h.toLowerCase()));
  return uri => {
    let u;
    try { u = new URL(uri); } catch { return null; }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    const p = u.port || (u.protocol === 'https:' ? '443' : '80');
    if (p !== port || !hosts.has(u.hostname.toLowerCase())) return null;
    return '/files' + u.pathname + u.search;
  };
}

let matcher;
// loadFileServer fetches configuration.json once; without it (an older
// server) no URL is mapped.
export function loadFileServer() {
  if (!matcher) {
    matcher = fetch('/configuration.json', { credentials: 'same-origin' })
      .then(r => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then(c => fileServerMatcher(c.fileBaseUrl, location.hostname));
  }
  return matcher;
}

// browserUrl is where the browser fetches a stored URL: /files/... for our
// file server, the URL itself otherwise.
export function browserUrl(uri, match) {
  if (!uri) return '';
  return (match && match(uri)) || uri;
}
