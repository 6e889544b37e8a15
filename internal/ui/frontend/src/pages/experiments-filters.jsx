// The filter bar of the experiments table: search text (debounced), and
// status, type, tag and user lists whose options load when first opened.

import { useEffect, useState } from 'preact/hooks';
import { call } from '../api.js';
import { CheckFilter } from '../components/table-menu.jsx';
import { statuses } from './experiments-query.jsx';

const statusLabel = s => (s === 'in_progress' ? 'running' : s);

// useOptions loads a filter's options once, on demand.
function useOptions(load, deps) {
  const [state, setState] = useState({ options: null, error: null, asked: false });
  useEffect(() => setState({ options: null, error: null, asked: false }), deps); // eslint-disable-line react-hooks/exhaustive-deps
  const ask = () => {
    if (state.asked) return;
    setState(s => ({ ...s, asked: true }));
    load().then(options => setState(s => ({ ...s, options }))).catch(error => setState(s => ({ ...s, error })));
  };
  return [state, ask];
}

export function SearchBox({ value, onChange }) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (text === value) return undefined;
    const t = setTimeout(() => onChange(text), 300);
    return () => clearTimeout(t);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <input type="search" data-testid="filter-search" placeholder="Search name or id…" value={text}
      onInput={e => setText(e.target.value)} onKeyDown={e => { if (e.key === 'Enter') onChange(text); }} aria-label="Search experiments" />
  );
}

export function FilterBar({ project, sub, filters, setFilter }) {
  const scope = project && project !== '*' ? [project] : [];
  const [types, askTypes] = useOptions(async () => (await call('tasks.get_types', { projects: scope })).types.map(t => ({ value: t, label: t })), [project]);
  const [tags, askTags] = useOptions(async () => (await call('projects.get_task_tags', { projects: scope })).tags.map(t => ({ value: t, label: t })), [project]);
  const [users, askUsers] = useOptions(async () => (await call('projects.get_user_names', { projects: scope, include_subprojects: scope.length ? !!sub : true })).users
    .map(u => ({ value: u.id, label: u.name || u.id })), [project, sub]);
  return (
    <>
      <SearchBox value={filters.search} onChange={v => setFilter('search', v)} />
      <CheckFilter label="Status" testid="filter-status" value={filters.status} onChange={v => setFilter('status', v)}
        options={statuses.map(s => ({ value: s, label: statusLabel(s) }))} />
      <CheckFilter label="Type" testid="filter-type" value={filters.type} onChange={v => setFilter('type', v)} options={types.options} error={types.error} onOpen={askTypes} />
      <CheckFilter label="Tags" testid="filter-tags" value={filters.tags} onChange={v => setFilter('tags', v)} options={tags.options} error={tags.error} onOpen={askTags} />
      <CheckFilter label="User" testid="filter-user" value={filters.user} onChange={v => setFilter('user', v)} options={users.options} error={users.error} onOpen={askUsers} />
    </>
  );
}
