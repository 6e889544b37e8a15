// The experiments grid: sortable header cells, a checkbox per row and one
// for the page, rows that link to the experiment page.

import { navigate } from '../router.jsx';
import { taskHref } from './experiments-columns.jsx';

function SortMark({ dir }) {
  return <span class={`xt-sort xt-sort-${dir || 'none'}`} aria-hidden="true">{dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : '↕'}</span>;
}

export function ExperimentsGrid({ tasks, columns, sort, onSort, selected, onSelect, onSelectPage, project, busy }) {
  const allOnPage = tasks.length > 0 && tasks.every(t => selected.has(t.id));
  const someOnPage = tasks.some(t => selected.has(t.id));
  const ctx = { project };
  return (
    <div class={busy ? 'table-wrap xt-wrap xt-busy' : 'table-wrap xt-wrap'}>
      <table class="grid xt-table" data-testid="experiments" aria-busy={busy ? 'true' : 'false'}>
        <thead>
          <tr>
            <th class="xt-check-cell">
              <input type="checkbox" data-testid="select-page" aria-label="Select all on this page" checked={allOnPage}
                ref={el => { if (el) el.indeterminate = someOnPage && !allOnPage; }} onChange={() => onSelectPage(!allOnPage)} />
            </th>
            {columns.map(c => {
              const dir = sort?.key === c.key ? sort.dir : null;
              return (
                <th key={c.key} data-col={c.key} class={`sortable${dir ? ' sorted' : ''}${c.num ? ' num' : ''}`}
                  aria-sort={dir ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
                  title={`Sort by ${c.label}`} onClick={() => onSort(c.key)}>
                  {c.label}<SortMark dir={dir} />
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {tasks.map(t => (
            <tr key={t.id} data-task-id={t.id} class={selected.has(t.id) ? 'selected' : ''}
              onDblClick={e => { if (!e.target.closest('a,input')) navigate(taskHref(t, project)); }}>
              <td class="xt-check-cell">
                <input type="checkbox" data-testid="select-row" aria-label={`Select ${t.name}`} checked={selected.has(t.id)} onChange={() => onSelect(t)} />
              </td>
              {columns.map(c => <td key={c.key} class={c.num ? 'num' : ''} data-col={c.key}>{c.render(t, ctx)}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
