// A task's status as a coloured badge.

const colours = {
  created: 'grey', queued: 'blue', in_progress: 'green', stopped: 'amber', published: 'violet',
  publishing: 'violet', closed: 'grey', failed: 'red', completed: 'teal', unknown: 'grey',
};

export function StatusBadge({ status }) {
  const s = status || 'unknown';
  const label = s === 'in_progress' ? 'running' : s;
  return <span class={`badge badge-${colours[s] || 'grey'}`} data-status={s}>{label}</span>;
}
