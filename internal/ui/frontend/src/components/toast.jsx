// Short notices after an action ("3 experiments enqueued") and the
// message of an action that failed.

import { render } from 'preact';

let host;
export function toast(message, kind = 'info') {
  if (!host) { host = document.createElement('div'); host.className = 'toasts'; document.body.appendChild(host); }
  const el = document.createElement('div');
  host.appendChild(el);
  render(<div class={`toast toast-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>{message}</div>, el);
  setTimeout(() => { render(null, el); el.remove(); }, kind === 'error' ? 8000 : 3500);
}

// runAction runs an async action, toasting its outcome; returns its result
// or undefined when it failed.
export async function runAction(fn, done) {
  try {
    const r = await fn();
    if (done) toast(typeof done === 'function' ? done(r) : done);
    return r;
  } catch (e) {
    toast(e.message || String(e), 'error');
    return undefined;
  }
}
