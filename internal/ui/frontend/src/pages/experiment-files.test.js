import test from 'node:test';
import assert from 'node:assert/strict';
import { fileServerMatcher, browserUrl } from './experiment-files.js';

test('file server URLs map to /files/ of the web origin', () => {
  const m = fileServerMatcher('http://trove.example:8081', 'trove.example');
  assert.equal(browserUrl('http://trove.example:8081/P/t.1/artifacts/a/a.txt', m), '/files/P/t.1/artifacts/a/a.txt');
  assert.equal(browserUrl('http://127.0.0.1:8081/Trove%20Demo/x.bin', m), '/files/Trove%20Demo/x.bin');
  assert.equal(browserUrl('http://localhost:8081/a?b=1', m), '/files/a?b=1');
  // another port, another host, another scheme: left alone
  assert.equal(browserUrl('http://trove.example:9999/a', m), 'http://trove.example:9999/a');
  assert.equal(browserUrl('http://elsewhere:8081/a', m), 'http://elsewhere:8081/a');
  assert.equal(browserUrl('s3://bucket/a', m), 's3://bucket/a');
  assert.equal(browserUrl('not a url', m), 'not a url');
  assert.equal(browserUrl('', m), '');
});

test('no configuration maps nothing', () => {
  const m = fileServerMatcher(undefined, 'h');
  assert.equal(browserUrl('http://h:8081/a', m), 'http://h:8081/a');
});
