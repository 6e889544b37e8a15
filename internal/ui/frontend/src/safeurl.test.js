import test from 'node:test';
import assert from 'node:assert/strict';
import { fileServerMatcher, isFilesPath, makeUrlPolicy, neutraliseMarkup, sanitizeFigure, fileHref } from './safeurl.js';

const page = { origin: 'http://trove.example:8080', hostname: 'trove.example' };
const config = {
  fileBaseUrl: 'http://trove.example:8081',
  displayedServerUrls: { apiServer: 'http://trove.example:8008', filesServer: 'http://trove.example:8081' },
};
const policy = makeUrlPolicy(config, page);
const kind = u => policy(u).kind;

test('file server URLs and /files/ paths are files, shown through /files/ of this origin', () => {
  for (const [url, href] of [
    ['http://trove.example:8081/P/t.1/metrics/a%20b/x.png', '/files/P/t.1/metrics/a%20b/x.png'],
    ['http://127.0.0.1:8081/Trove%20Demo/x.bin', '/files/Trove%20Demo/x.bin'],
    ['http://localhost:8081/a?b=1', '/files/a?b=1'],
    ['/files/P/x.png', '/files/P/x.png'],
    ['http://trove.example:8080/files/P/x.png#frag', '/files/P/x.png#frag'],
  ]) {
    assert.deepEqual(policy(url), { kind: 'files', href }, url);
  }
});

test('the attacks on the API of this origin are refused', () => {
  for (const url of [
    '/api/auth.edit_user?user=u1&role=admin#.png',
    'http://trove.example:8080/api/tasks.delete?task=t',
    '/files/../api/auth.edit_user?user=u1&role=admin',
    '/files/%2e%2e/api/x',
    '/files/..%2fapi/x',
    '/files/..%2Fapi/x.png',
    '/%61pi/auth.edit_user?role=admin',
    '/API/auth.edit_user',
    '/files%2f../api/x',
    '/files/%zz.png',
    '/login',
    '/',
  ]) {
    assert.equal(kind(url), 'blocked', url);
  }
});

test('the API port and any other port of this host are refused', () => {
  for (const url of [
    'http://trove.example:8008/auth.edit_user?user=u1&role=admin#.png',
    'http://127.0.0.1:8008/tasks.delete?task=t',
    'http://localhost:8008/x.png',
    'http://[::1]:8008/x.png',
    'https://trove.example/x.png',
    'http://trove.example:9999/x.png',
    'http://TROVE.example:8008/x.png',
  ]) {
    assert.deepEqual(policy(url).reason, 'this-server', url);
  }
});

test('schemes other than http(s), protocol-relative, backslashes, relative paths and credentials are refused', () => {
  for (const [url, reason] of [
    ['javascript:alert(1)//x.png', 'scheme'],
    ['JavaScript:alert(1)', 'scheme'],
    [' javascript:alert(1)', 'scheme'],
    ['java\tscript:alert(1)', 'characters'],
    ['java\nscript:alert(1)', 'characters'],
    ['vbscript:msgbox(1)', 'scheme'],
    ['data:text/html,<script>alert(1)</script>', 'scheme'],
    ['data:image/png;base64,iVBORw0KGgo=', 'scheme'],
    ['blob:http://trove.example:8080/uuid', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['s3://bucket/x.png', 'scheme'],
    ['//evil.example/x.png', 'protocol-relative'],
    ['/\\evil.example/x.png', 'characters'],
    ['\\\\evil.example\\x.png', 'characters'],
    ['x.png', 'relative'],
    ['api/auth.edit_user', 'relative'],
    ['http://user:pw@evil.example/x.png', 'credentials'],
    ['', 'empty'],
    ['   ', 'empty'],
  ]) {
    assert.equal(policy(url).kind, 'blocked', url);
    assert.equal(policy(url).reason, reason, url);
  }
  assert.equal(policy(undefined).kind, 'blocked');
  assert.equal(policy(null).kind, 'blocked');
  assert.equal(policy({ toString: () => '/files/x' }).kind, 'blocked');
  assert.equal(policy('s3://bucket/x.png').scheme, 's3');
});

test('other hosts are external, never files', () => {
  assert.deepEqual(policy('https://evil.example/x.png'), { kind: 'external', href: 'https://evil.example/x.png' });
  assert.deepEqual(policy('http://files.example:8081/a'), { kind: 'external', href: 'http://files.example:8081/a' });
});

test('without configuration only /files/ paths of this origin are files', () => {
  const strict = makeUrlPolicy({}, page);
  assert.equal(strict('/files/a.png').kind, 'files');
  assert.equal(strict('http://trove.example:8081/a.png').reason, 'this-server');
  assert.equal(strict('/api/x').kind, 'blocked');
  assert.equal(fileServerMatcher(undefined, 'h')('http://h:8081/a'), null);
  assert.equal(fileServerMatcher('javascript:alert(1)', 'h')('http://h:80/a'), null);
});

test('a file server URL whose path climbs out of /files/ is refused', () => {
  assert.equal(kind('http://trove.example:8081/..%2fapi/x.png'), 'blocked');
  assert.equal(kind('http://trove.example:8081/%2e%2e/api/x'), 'files'); // resolved by URL to /api/x on the file server
  assert.equal(fileHref('http://trove.example:8081/%2e%2e/api/x', policy), '/files/api/x');
  assert.equal(isFilesPath('/files/a/../../api'), false);
  assert.equal(isFilesPath('/files/a%5cb'), false);
  assert.equal(isFilesPath('/files/a/b.png'), true);
});

test('links and CSS URLs are stripped from plotly text, the rest kept', () => {
  assert.equal(neutraliseMarkup('see <a href="/api/tasks.delete?task=t">here</a>!'), 'see here!');
  assert.equal(neutraliseMarkup('<A HREF="javascript:alert(1)" target="_blank">x</A>'), 'x');
  assert.equal(neutraliseMarkup('<a\nhref="/api/x">y</a >'), 'y');
  assert.equal(neutraliseMarkup('<b>bold</b><br><i>i</i>'), '<b>bold</b><br><i>i</i>');
  assert.equal(neutraliseMarkup('<span style="fill:url(/api/x)">s</span>'), 's</span>');
  assert.equal(neutraliseMarkup('<span style="color:red">s</span>'), '<span style="color:red">s</span>');
  assert.equal(neutraliseMarkup('a < b > c'), 'a < b > c');
  assert.equal(neutraliseMarkup(42), 42);
});

test('figures keep file server images and lose every other URL and link', () => {
  const fig = {
    data: [
      { type: 'scatter', x: [1, 2], y: [3, 4], text: ['<a href="/api/tasks.delete?task=t">p</a>', 'q'], name: 'n' },
      { type: 'image', source: '/api/tasks.delete?task=t' },
    ],
    layout: {
      title: { text: 'T <a href="/api/x">link</a>' },
      annotations: [{ text: '<a href="/api/tasks.delete?task=t">click</a>', x: 1, y: 1 }],
      images: [
        { source: '/api/tasks.delete?task=t', x: 0, y: 0 },
        { source: 'http://trove.example:8081/P/bg.png', x: 1, y: 1 },
        { source: 'data:image/svg+xml,<svg onload=alert(1)>', x: 2 },
        { source: 'https://evil.example/x.png' },
      ],
      mapbox: { style: 'https://evil.example/style.json', layers: [{ sourcetype: 'raster', source: ['/api/x/{z}'] }, { sourcetype: 'raster', source: ['/files/t/tile.png'] }] },
      template: { layout: { images: [{ source: '/api/x' }] } },
    },
  };
  const safe = sanitizeFigure(fig, policy);
  assert.deepEqual(safe.data[0], { type: 'scatter', x: [1, 2], y: [3, 4], text: ['p', 'q'], name: 'n' });
  assert.deepEqual(safe.data[1], { type: 'image' });
  assert.equal(safe.layout.title.text, 'T link');
  assert.equal(safe.layout.annotations[0].text, 'click');
  assert.deepEqual(safe.layout.images, [{ source: '/files/P/bg.png', x: 1, y: 1 }]);
  assert.equal(safe.layout.mapbox.style, 'white-bg');
  assert.deepEqual(safe.layout.mapbox.layers, [{ sourcetype: 'raster', source: [] }, { sourcetype: 'raster', source: ['/files/t/tile.png'] }]);
  assert.deepEqual(safe.layout.template.layout.images, []);
  // the stored figure itself is not changed
  assert.equal(fig.layout.images.length, 4);
});
