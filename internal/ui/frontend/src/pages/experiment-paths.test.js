// node --test src/pages/ : the tab paths the SDK and the ClearML web app
// print open the right tab.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseTabPath, taskBase, tabHref, TABS } from './experiment-paths.js';

test('SDK and web app paths open their tab', () => {
  const cases = [
    ['', 'info', ''], ['output/log', 'log', ''], ['output', 'log', ''],
    ['output/metrics/scalar', 'scalars', ''], ['output/metrics/plots', 'plots', ''],
    ['output/debugImages', 'debug', ''], ['info-output/metrics/plots', 'plots', ''],
    ['execution', 'execution', ''], ['output/execution', 'execution', ''],
    ['hyper-params', 'hyper-params', ''], ['hyper-params/General', 'hyper-params', 'section:General'],
    ['hyper-params/hyper-param/Args', 'hyper-params', 'section:Args'],
    ['hyper-params/configuration/model_cfg', 'hyper-params', 'config:model_cfg'],
    ['artifacts', 'artifacts', ''], ['artifacts/other/notes/output', 'artifacts', 'notes'],
    ['artifacts/output-model/m1', 'models', 'm1'], ['models', 'models', ''],
    ['info', 'info', ''], ['general', 'info', ''], ['output/general', 'info', ''], ['nonsense/x', 'info', ''],
  ];
  for (const [rest, tab, item] of cases) {
    assert.deepEqual(parseTabPath(rest), { tab, item }, rest);
  }
});

test('every tab link parses back to its tab', () => {
  const base = taskBase('p1', 't1', '/projects/p1/tasks/t1/output/log');
  assert.equal(base, '/projects/p1/tasks/t1');
  assert.equal(taskBase('p1', 't1', '/projects/p1/experiments/t1'), '/projects/p1/experiments/t1');
  for (const t of TABS) {
    const rest = tabHref(base, t.key).slice(base.length + 1);
    assert.equal(parseTabPath(rest).tab, t.key);
  }
});
