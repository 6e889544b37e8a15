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

// fileName is the last part of a URI's path, for the download attribute.
export function fileName(uri) {
  try { return decodeURIComponent(new URL(uri).pathname.split('/').pop()) || 'download'; } catch { return 'download'; }
}
