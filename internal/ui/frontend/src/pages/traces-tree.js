// The pure parts of the traces pages: durations and the span tree.

// ms as "1.25 s" or "340 ms": traces are short.
export function fmtMs(ms) {
  if (ms === null || ms === undefined) return '';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

// spanTree orders spans as a tree: each with its depth, children after
// their parent by start time. A span whose parent is missing is a root.
export function spanTree(spans) {
  const ids = new Set(spans.map(s => s.span_id));
  const kids = new Map();
  for (const s of spans) {
    const parent = s.parent_span_id && ids.has(s.parent_span_id) ? s.parent_span_id : '';
    if (!kids.has(parent)) kids.set(parent, []);
    kids.get(parent).push(s);
  }
  const out = [];
  const seen = new Set();
  const walk = (parent, depth) => {
    const list = (kids.get(parent) || []).slice().sort((a, b) => Number(a.start_time_unix_nano) - Number(b.start_time_unix_nano));
    for (const s of list) {
      if (seen.has(s)) continue;
      seen.add(s);
      out.push({ span: s, depth });
      walk(s.span_id, depth + 1);
    }
  };
  walk('', 0);
  return out;
}

