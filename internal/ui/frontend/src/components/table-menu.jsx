// A button with a popover under it (column chooser, list filters) that
// closes on a click outside or Escape; and a checkbox list filter built on it.

import { useEffect, useRef, useState } from 'preact/hooks';
import './table-menu.css';

export function Popover({ label, badge, testid, align = 'left', onOpen, children }) {
  const [open, setOpen] = useState(false);
  const ref = useRef(null);
  useEffect(() => {
    if (!open) return undefined;
    const away = e => { if (ref.current && !ref.current.contains(e.target)) setOpen(false); };
    const esc = e => { if (e.key === 'Escape') setOpen(false); };
    document.addEventListener('mousedown', away);
    document.addEventListener('keydown', esc);
    return () => { document.removeEventListener('mousedown', away); document.removeEventListener('keydown', esc); };
  }, [open]);
  const toggle = () => { if (!open && onOpen) onOpen(); setOpen(!open); };
  return (
    <div class="tm-wrap" ref={ref}>
      <button type="button" class={badge ? 'btn tm-btn tm-active' : 'btn tm-btn'} data-testid={testid} aria-expanded={open} onClick={toggle}>
        {label}{badge ? <span class="tm-badge">{badge}</span> : null}
        <svg viewBox="0 0 10 6" width="9" height="6" aria-hidden="true"><path d="M1 1l4 4 4-4" fill="none" stroke="currentColor" stroke-width="1.5" /></svg>
      </button>
      {open && <div class={`tm-pop tm-${align}`}>{typeof children === 'function' ? children(() => setOpen(false)) : children}</div>}
    </div>
  );
}

// CheckFilter picks any number of values from options [{value, label}];
// options may be null while they load.
export function CheckFilter({ label, testid, options, value, onChange, onOpen, error }) {
  const set = new Set(value);
  const flip = v => { const n = new Set(set); n.has(v) ? n.delete(v) : n.add(v); onChange([...n]); };
  return (
    <Popover label={label} badge={value.length || 0} testid={testid} onOpen={onOpen}>
      <div class="tm-list" data-filter={testid}>
        {error && <div class="tm-empty">{error.message}</div>}
        {!options && !error && <div class="tm-empty">Loading…</div>}
        {options && !options.length && <div class="tm-empty">None</div>}
        {options && options.map(o => (
          <label key={o.value} class="tm-item">
            <input type="checkbox" checked={set.has(o.value)} onChange={() => flip(o.value)} data-value={o.value} /> {o.label}
          </label>
        ))}
      </div>
      {value.length > 0 && <div class="tm-foot"><button type="button" class="btn btn-small btn-ghost" onClick={() => onChange([])}>Clear</button></div>}
    </Popover>
  );
}
