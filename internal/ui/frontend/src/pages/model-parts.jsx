// Small pieces the models table and the model page share.

// ModelStatus: a model is published (ready) or still a draft.
export function ModelStatus({ model }) {
  return model.ready
    ? <span class="badge badge-violet" data-model-status="published">published</span>
    : <span class="badge badge-grey" data-model-status="draft">draft</span>;
}

// modelHref is the model page's path, under its project ("*" when it has none).
export function modelHref(m) {
  return `/projects/${encodeURIComponent(m.project?.id || '*')}/models/${encodeURIComponent(m.id)}`;
}

const loopback = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

// downloadHref is where the browser fetches a stored file: a URL of
// Trove's file server (same host as this page, or loopback) goes through
// /files/ of this origin, which carries the session cookie; another http
// URL is linked as it is; other schemes (s3://, file://) cannot be
// fetched by a browser and give null.
export function downloadHref(uri, here = location) {
  if (!uri) return null;
  let u;
  try { u = new URL(uri); } catch { return null; }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  const ours = u.hostname === here.hostname || (loopback.has(u.hostname) && loopback.has(here.hostname));
  if (!ours) return u.href;
  return '/files' + u.pathname + u.search;
}

// fileName is the last part of a URI's path, for the download attribute.
export function fileName(uri) {
  try { return decodeURIComponent(new URL(uri).pathname.split('/').pop()) || 'download'; } catch { return 'download'; }
}
