import test from 'node:test';
import assert from 'node:assert/strict';

globalThis.location = { href: 'http://ui.example:8080/projects', origin: 'http://ui.example:8080' };
const { viaWebOrigin } = await import('./file-url.js');

test('file server URLs are shown through /files/ of the web origin', () => {
  assert.equal(viaWebOrigin('http://127.0.0.1:8081/Proj/t.1/metrics/a%20b/x.png'), '/files/Proj/t.1/metrics/a%20b/x.png');
  assert.equal(viaWebOrigin('https://files.example/p/x.png?v=1'), '/files/p/x.png?v=1');
});

test('same-origin, non-http and bad URLs stay as they are', () => {
  assert.equal(viaWebOrigin('http://ui.example:8080/files/x.png'), 'http://ui.example:8080/files/x.png');
  assert.equal(viaWebOrigin('s3://bucket/x.png'), 's3://bucket/x.png');
  assert.equal(viaWebOrigin(''), '');
  assert.equal(viaWebOrigin(undefined), undefined);
});
