// The tasks.get_all_ex body for one page of the experiments table, in the
// shape the ClearML web app sends: only the shown columns' fields, the
// sort in order_by, filters as list filters, system tags keeping archived,
// dataset, pipeline and report tasks out of the normal view.

// escapeRegex makes typed text match literally (the server takes a regex).
export function escapeRegex(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export const statuses = ['created', 'queued', 'in_progress', 'stopped', 'failed', 'completed', 'published', 'closed'];

// pageQuery builds the request for page `page` (0-based) of `size` rows.
export function pageQuery({ project, sub, archived, filters, sort, page, size, columns }) {
  const only = new Set(['id', 'name', 'status', 'type', 'system_tags', 'project.name', 'last_update']);
  for (const c of columns) for (const f of c.fields) only.add(f);
  const body = {
    only_fields: [...only],
    order_by: orderBy(sort, columns),
    page,
    page_size: size,
    system_tags: [archived ? '__$and' : '__$not', 'archived', '__$not', 'pipeline', '__$not', 'dataset', '__$not', 'reports'],
    search_hidden: false,
  };
  if (project && project !== '*') {
    body.project = [project];
    body.include_subprojects = !!sub;
  }
  const text = (filters.search || '').trim();
  // name and id are columns; comment lives in the document, which costs
  // reading every task's document on a large store.
  if (text) body._any_ = { fields: ['name', 'id'], pattern: escapeRegex(text) };
  if (filters.status?.length) body.status = filters.status;
  if (filters.type?.length) body.type = filters.type;
  if (filters.tags?.length) body.tags = filters.tags;
  if (filters.user?.length) body.user = filters.user;
  return body;
}

// orderBy gives the server sort for the chosen column, newest first when
// nothing is chosen, and last_update as the tie-breaker so pages are stable.
export function orderBy(sort, columns) {
  const col = sort && columns.find(c => c.key === sort.key);
  if (!col) return ['-last_update'];
  const first = (sort.dir === 'desc' ? '-' : '') + col.order;
  return col.order === 'last_update' ? [first] : [first, '-last_update'];
}
