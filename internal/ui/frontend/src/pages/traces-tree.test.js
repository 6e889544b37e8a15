import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtMs, spanTree } from './traces-tree.js';

test('spanTree puts children after their parent, by start time, with depths', () => {
  const spans = [
    { span_id: 'c2', parent_span_id: 'r', start_time_unix_nano: '30', name: 'c2' },
    { span_id: 'r', parent_span_id: '', start_time_unix_nano: '10', name: 'root' },
    { span_id: 'g', parent_span_id: 'c1', start_time_unix_nano: '25', name: 'g' },
    { span_id: 'c1', parent_span_id: 'r', start_time_unix_nano: '20', name: 'c1' },
    { span_id: 'o', parent_span_id: 'missing', start_time_unix_nano: '5', name: 'orphan' },
  ];
  assert.deepEqual(spanTree(spans).map(r => `${r.depth}:${r.span.name}`), ['0:orphan', '0:root', '1:c1', '2:g', '1:c2']);
});

test('spanTree survives a cycle', () => {
  const spans = [{ span_id: 'a', parent_span_id: 'b' }, { span_id: 'b', parent_span_id: 'a' }];
  assert.equal(spanTree(spans).length, 0);
});

test('fmtMs', () => {
  assert.equal(fmtMs(340.4), '340 ms');
  assert.equal(fmtMs(1250), '1.25 s');
  assert.equal(fmtMs(undefined), '');
});
