// Modal confirmation: every destructive action asks first.

import { render } from 'preact';

// confirmAction shows a dialog and resolves true when the user confirms.
export function confirmAction({ title, body, confirm = 'Confirm', danger = false }) {
  return new Promise(resolve => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    const done = v => { render(null, host); host.remove(); resolve(v); };
    render(
      <div class="modal-backdrop" onClick={e => e.target === e.currentTarget && done(false)}>
        <div class="modal" role="dialog" aria-modal="true" aria-label={title}>
          <h2>{title}</h2>
          {body && <div class="modal-body">{body}</div>}
          <div class="modal-actions">
            <button class="btn" onClick={() => done(false)}>Cancel</button>
            <button class={danger ? 'btn btn-danger' : 'btn btn-primary'} data-testid="confirm" onClick={() => done(true)}>{confirm}</button>
          </div>
        </div>
      </div>,
      host,
    );
  });
}

// promptText asks for one line of text (a name, a tag); resolves null on cancel.
export function promptText({ title, label, value = '', confirm = 'OK' }) {
  return new Promise(resolve => {
    const host = document.createElement('div');
    document.body.appendChild(host);
    let current = value;
    const done = v => { render(null, host); host.remove(); resolve(v); };
    render(
      <div class="modal-backdrop">
        <form class="modal" role="dialog" aria-modal="true" aria-label={title}
          onSubmit={e => { e.preventDefault(); done(current.trim() || null); }}>
          <h2>{title}</h2>
          <label class="field">{label}
            <input autoFocus value={value} onInput={e => { current = e.target.value; }} data-testid="prompt-input" />
          </label>
          <div class="modal-actions">
            <button type="button" class="btn" onClick={() => done(null)}>Cancel</button>
            <button type="submit" class="btn btn-primary" data-testid="prompt-ok">{confirm}</button>
          </div>
        </form>
      </div>,
      host,
    );
  });
}
