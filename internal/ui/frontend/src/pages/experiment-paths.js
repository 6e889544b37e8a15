// The experiment page's tabs and the URL paths that open them: the ones
// the ClearML SDK prints (output/log, output/metrics/scalar, ...), the
// ClearML web app's own (info-output/..., general, hyper-params/
// hyper-param/<section>, artifacts/output-model/<id>, ...), and ours.

// TABS in display order: key (the a[data-tab] value), label, and the
// path the tab's link goes to.
export const TABS = [
  { key: 'info', label: 'Overview', path: 'info' },
  { key: 'execution', label: 'Execution', path: 'execution' },
  { key: 'hyper-params', label: 'Configuration', path: 'hyper-params' },
  { key: 'artifacts', label: 'Artifacts', path: 'artifacts' },
  { key: 'models', label: 'Models', path: 'models' },
  { key: 'log', label: 'Console', path: 'output/log' },
  { key: 'scalars', label: 'Scalars', path: 'output/metrics/scalar' },
  { key: 'plots', label: 'Plots', path: 'output/metrics/plots' },
  { key: 'debug', label: 'Debug samples', path: 'output/debugImages' },
];

export const DEFAULT_TAB = 'info';

// parseTabPath turns the path after the task id into {tab, item}: item
// names what inside the tab the path points at (a hyper-parameter
// section, a configuration object, an artifact, a model), or ''.
export function parseTabPath(rest = '') {
  let parts = String(rest).split('/').filter(Boolean);
  let output = false;
  if (parts[0] === 'output' || parts[0] === 'info-output') { output = true; parts = parts.slice(1); }
  const [head = '', ...tail] = parts;
  const item = tail.join('/');
  switch (head) {
    case '': return { tab: output ? 'log' : DEFAULT_TAB, item: '' };
    case 'log': return { tab: 'log', item: '' };
    case 'metrics':
      if (tail[0] === 'plots') return { tab: 'plots', item: '' };
      return { tab: 'scalars', item: '' };
    case 'debugImages': case 'debug-images': return { tab: 'debug', item: '' };
    case 'execution': return { tab: 'execution', item: '' };
    case 'hyper-params':
      // hyper-params/<section>, hyper-params/hyper-param/<section>,
      // hyper-params/configuration/<name>
      if (tail[0] === 'hyper-param') return { tab: 'hyper-params', item: 'section:' + tail.slice(1).join('/') };
      if (tail[0] === 'configuration') return { tab: 'hyper-params', item: 'config:' + tail.slice(1).join('/') };
      return { tab: 'hyper-params', item: item ? 'section:' + item : '' };
    case 'artifacts':
      if (tail[0] === 'input-model' || tail[0] === 'output-model') return { tab: 'models', item: tail[1] || '' };
      if (tail[0] === 'artifact' || tail[0] === 'other') return { tab: 'artifacts', item: tail[1] || '' };
      return { tab: 'artifacts', item: tail[0] || '' };
    case 'models': return { tab: 'models', item };
    case 'info': case 'general': return { tab: 'info', item: '' };
    default: return { tab: DEFAULT_TAB, item: '' };
  }
}

// taskBase is the page's own path without the tab: /projects/<p>/
// experiments/<t>, keeping /tasks/ when the page was opened that way.
export function taskBase(project, task, pathname = '') {
  const kind = /^\/projects\/[^/]+\/tasks\//.test(pathname) ? 'tasks' : 'experiments';
  return `/projects/${encodeURIComponent(project || '*')}/${kind}/${encodeURIComponent(task)}`;
}

export function tabHref(base, key) {
  const t = TABS.find(x => x.key === key);
  return `${base}/${t ? t.path : key}`;
}
