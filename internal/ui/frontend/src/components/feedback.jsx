// What a page shows while it loads, when a call failed, and when an id
// does not exist: never a blank screen.

export function Spinner({ label = 'Loading…' }) {
  return <div class="spinner" role="status"><span class="spinner-dot" />{label}</div>;
}

// ErrorBox shows a failed call's message (the server's own words).
export function ErrorBox({ error, retry }) {
  if (!error) return null;
  return (
    <div class="error-box" role="alert">
      <strong>Something went wrong.</strong> <span class="error-msg">{error.message || String(error)}</span>
      {retry && <button class="btn btn-small" onClick={retry}>Retry</button>}
    </div>
  );
}

// isNotFound tells whether a call failed because the id does not exist.
export function isNotFound(error) {
  return !!error && (error.status === 404 || (error.status === 400 && [101, 201, 401, 701].includes(error.subcode)) || /not found/i.test(error.message || ''));
}

export function NotFound({ what = 'page', id }) {
  return (
    <div class="not-found" data-testid="not-found">
      <h1>Not found</h1>
      <p>No {what}{id ? <> with id <code>{id}</code></> : ''} exists here, or you cannot see it.</p>
      <p><a href="/projects">Go to projects</a></p>
    </div>
  );
}

// Loaded renders children(data) once a useApi state has data, a spinner
// before, the not-found page or the error after.
export function Loaded({ state, what, id, children }) {
  if (state.error && isNotFound(state.error) && state.data === undefined) return <NotFound what={what} id={id} />;
  if (state.error && state.data === undefined) return <ErrorBox error={state.error} retry={state.reload} />;
  if (state.data === undefined) return <Spinner />;
  return children(state.data);
}
