// The project tree: built from one flat projects.get_all_ex answer by the
// parent links, with counts rolled up so a parent shows what it holds.

// buildTree returns the roots; each node has children (sorted by name),
// depth, and rolled-up models and last update. Task counts come from the
// server's stats, which already include sub-projects.
export function buildTree(projects) {
  const byId = new Map(projects.map(p => [p.id, { ...p, children: [] }]));
  const roots = [];
  for (const n of byId.values()) {
    const parent = n.parent?.id && byId.get(n.parent.id);
    (parent ? parent.children : roots).push(n);
  }
  const walk = (nodes, depth) => {
    nodes.sort((a, b) => label(a).localeCompare(label(b)));
    for (const n of nodes) {
      n.depth = depth;
      walk(n.children, depth + 1);
      n.models = (n.own_models || 0) + n.children.reduce((s, c) => s + c.models, 0);
      n.updated = [n.last_update, n.stats?.active?.last_task_run, ...n.children.map(c => c.updated)]
        .filter(Boolean).sort().pop() || null;
    }
  };
  walk(roots, 0);
  return roots;
}

export function label(p) {
  return p.basename || p.name.split('/').pop();
}

// visibleRows flattens the tree into the rows to draw: children only under
// open nodes (isOpen(id)); with a search text, the matches and their ancestors, all
// open.
export function visibleRows(roots, isOpen, text) {
  const q = text.trim().toLowerCase();
  const out = [];
  // A plain word matches the project's own name; text with a slash, its path.
  const matches = n => (q.includes('/') ? n.name : label(n)).toLowerCase().includes(q) || n.id === q;
  const keep = new Set();
  if (q) {
    const mark = n => {
      let any = matches(n);
      for (const c of n.children) any = mark(c) || any;
      if (any) keep.add(n.id);
      return any;
    };
    roots.forEach(mark);
  }
  const walk = nodes => {
    for (const n of nodes) {
      if (q && !keep.has(n.id)) continue;
      out.push(n);
      if (n.children.length && (q || isOpen(n.id))) walk(n.children);
    }
  };
  walk(roots);
  return out;
}
