// The small labelled controls of chart toolbars: a checkbox and a choice.

export function Toggle({ label, checked, onChange, testid }) {
  return (
    <label class="chart-control">
      <input type="checkbox" checked={checked} onChange={e => onChange(e.currentTarget.checked)} data-testid={testid} />
      {label}
    </label>
  );
}

// Choice is a labelled select over options [{id, label}].
export function Choice({ label, value, options, onChange, testid }) {
  return (
    <label class="chart-control">
      {label}
      <select value={value} onChange={e => onChange(e.currentTarget.value)} data-testid={testid}>
        {options.map(o => <option key={o.id} value={o.id}>{o.label}</option>)}
      </select>
    </label>
  );
}
