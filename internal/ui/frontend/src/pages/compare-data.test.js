import test from 'node:test';
import assert from 'node:assert/strict';
import { compareHref, differs, looksNumeric, metricRows, paramRows, parseIds } from './compare-data.js';

test('parseIds keeps unique non-empty ids in order', () => {
  assert.deepEqual(parseIds('?ids=a,b,,a, c'), ['a', 'b', 'c']);
  assert.deepEqual(parseIds(''), []);
  assert.equal(compareHref(['a', 'b']), '/compare?ids=a,b');
});

const tasks = [
  { id: '1', hyperparams: { General: { lr: { value: '0.1' }, bs: { value: '32' } } },
    last_metrics: { h1: { h2: { metric: 'loss', variant: 'val', value: 0.5, min_value: 0.4, max_value: 2 } } } },
  { id: '2', hyperparams: { General: { lr: { value: '0.1' } }, Args: { seed: { value: '7' } } },
    last_metrics: { h1: { h2: { metric: 'loss', variant: 'val', value: 0.3, min_value: 0.3, max_value: 1 } } } },
];

test('paramRows: every parameter any task has, by section, missing as undefined', () => {
  const rows = paramRows(tasks);
  assert.deepEqual(rows.map(r => [r.key, r.values]), [
    ['Args/seed', [undefined, '7']],
    ['General/bs', ['32', undefined]],
    ['General/lr', ['0.1', '0.1']],
  ]);
  assert.deepEqual(rows.map(r => differs(r.values)), [true, true, false]);
});

test('metricRows reads the chosen last_metrics value', () => {
  assert.deepEqual(metricRows(tasks).map(r => [r.key, r.values]), [['loss/val', [0.5, 0.3]]]);
  assert.deepEqual(metricRows(tasks, 'max_value')[0].values, [2, 1]);
});

test('looksNumeric: numbers and numeric text align right, anything else is text', () => {
  for (const v of [0.5, -2, '0.1', ' 32 ', '-3', '+4.', '.5', '1e-4', '2E+3']) assert.equal(looksNumeric(v), true, JSON.stringify(v));
  for (const v of ['', ' ', 'baseline', '0.1,0.2', 'nan', 'v2', '1e', '--1', '0x10', null, undefined, true, [1]]) {
    assert.equal(looksNumeric(v), false, JSON.stringify(v));
  }
});
