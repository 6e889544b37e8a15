// node --test internal/ui/frontend/src/  (no browser needed)
import test from 'node:test';
import assert from 'node:assert/strict';
import { align, bucketed, keyRange, positiveOnly, smooth, taskOrigins, xValues, keyFor } from './scalar-data.js';

test('align passes series sharing their x through untouched', () => {
  const x = [0, 1, 2];
  const cols = align([{ x, y: [1, 2, 3] }, { x: [0, 1, 2], y: [4, 5, 6] }]);
  assert.equal(cols[0], x);
  assert.deepEqual(cols.slice(1), [[1, 2, 3], [4, 5, 6]]);
});

test('align merges different x onto their union with gaps', () => {
  const cols = align([{ x: [0, 2, 4], y: [1, 2, 3] }, { x: [1, 2, 5], y: [7, 8, 9] }]);
  assert.deepEqual([...cols[0]], [0, 1, 2, 4, 5]);
  assert.deepEqual(cols[1], [1, null, 2, 3, null]);
  assert.deepEqual(cols[2], [null, 7, 8, null, 9]);
});

test('align of nothing is one empty column', () => {
  assert.deepEqual(align([]), [[]]);
});

test('smooth: weight 0 keeps the values, otherwise a debiased moving average', () => {
  const y = [1, 2, 3];
  assert.equal(smooth(y, 0), y);
  const s = smooth([2, 2, 2], 0.9);
  s.forEach(v => assert.ok(Math.abs(v - 2) < 1e-12), 'a constant stays constant once debiased');
  const t = smooth([0, 10], 0.5);
  assert.equal(t[0], 0);
  assert.ok(Math.abs(t[1] - 5 / 0.75) < 1e-12);
});

test('smooth leaves gaps as gaps', () => {
  assert.deepEqual(smooth([1, null, 1], 0.5).map(v => (v === null ? null : Math.round(v))), [1, null, 1]);
});

test('positiveOnly drops what a log scale cannot show', () => {
  assert.deepEqual(positiveOnly([1, 0, -2, 3, null]), [1, null, null, 3, null]);
});

test('relative time counts from the earlier of start and first point, in seconds', () => {
  const tasks = [{ id: 'a', started: '2026-01-01T00:00:00.000Z' }, { id: 'b' }];
  const t0 = Date.parse('2026-01-01T00:00:00.000Z');
  const metrics = [{ series: [{ taskId: 'a', x: [t0 + 1000, t0 + 3000] }, { taskId: 'b', x: [5000, 7000] }] }];
  const o = taskOrigins(tasks, metrics);
  assert.equal(o.get('a'), t0);
  assert.equal(o.get('b'), 5000);
  assert.deepEqual([...xValues(metrics[0].series[0], 'relative', o)], [1, 3]);
  assert.deepEqual([...xValues(metrics[0].series[1], 'relative', o)], [0, 2]);
  assert.deepEqual([...xValues(metrics[0].series[1], 'wall', o)], [5, 7]);
  assert.equal(xValues(metrics[0].series[1], 'iter', o), metrics[0].series[1].x);
});

test('each axis mode asks for a key the operation accepts', () => {
  assert.equal(keyFor('iter'), 'iter');
  assert.equal(keyFor('wall'), 'timestamp');
  assert.equal(keyFor('relative'), 'timestamp');
  assert.equal(keyFor('nonsense'), 'iter');
});

test('bucketed: some bucket whose extremes differ', () => {
  assert.equal(bucketed({ x: [0, 1], y: [1, 2] }), false); // no extremes asked
  assert.equal(bucketed({ x: [0, 1], y: [1, 2], lo: [1, 2], hi: [1, 2] }), false); // raw points
  assert.equal(bucketed({ x: [0, 10], y: [1, 2], lo: [0, 2], hi: [50, 2] }), true);
});

test('keyRange: the zoomed x range in histogram keys', () => {
  assert.deepEqual(keyRange('iter', 10.2, 99.7, ['a']), [10, 100]);
  assert.deepEqual(keyRange('wall', 1700000000.5, 1700000001.25, ['a']), [1700000000500, 1700000001250]);
  // relative time: each task from its origin, the union of the ranges
  const origins = new Map([['a', 1000], ['b', 5000]]);
  assert.deepEqual(keyRange('relative', 1, 2, ['a', 'b'], origins), [2000, 7000]);
});
