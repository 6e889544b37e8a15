// Writes the replay fixture: every recorded call with the seeded ids
// replaced by placeholders ({{task:resnet}}, {{project:vision}}, ...)
// that the Go contract test (internal/webapp/contract_test.go) fills from
// its own seed. An id the run made itself (a created project, a clone, a
// new queue) becomes {{new:N}}, captured from the answer that made it.

import fs from 'node:fs';
import path from 'node:path';

const wholeId = /^[0-9a-f]{32}$/;
const makers = /\.(create|clone)$/;

export function writeFixture(file, steps, seeded, label = 'the ClearML web app v2.0') {
  const names = new Map();
  const add = (kind, obj) => { for (const [k, v] of Object.entries(obj || {})) if (typeof v === 'string') names.set(v, `{{${kind}:${k}}}`); };
  add('project', seeded.projects);
  add('task', seeded.tasks);
  add('model', seeded.models);
  add('queue', seeded.queues);
  names.set(seeded.pipelineProject, '{{project:pipeline}}');
  names.set(seeded.datasetProject, '{{project:dataset}}');
  names.set(seeded.dataset, '{{task:dataset}}');
  names.set(seeded.worker, '{{worker:1}}');
  let made = 0;
  let scrolls = 0;
  const swap = v => {
    if (typeof v === 'string') {
      let out = v;
      for (const [id, ph] of names) out = out.split(id).join(ph);
      return out;
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [swap(k), swap(x)]));
    return v;
  };
  // captures finds ids first seen in an answer of a maker operation.
  const captures = (v, at, out) => {
    if (typeof v === 'string' && wholeId.test(v) && !names.has(v)) {
      const ph = `{{new:${++made}}}`;
      names.set(v, ph);
      out.push({path: at, as: ph});
    } else if (Array.isArray(v)) v.forEach((x, i) => captures(x, at ? `${at}.${i}` : String(i), out));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) captures(x, at ? `${at}.${k}` : k, out);
    return out;
  };
  const calls = [];
  for (const s of steps) {
    for (const c of s.calls) {
      const call = {page: s.name, op: c.op, version: c.version, method: c.method, query: swap(c.query || ''), body: swap(c.body),
        status: c.status, response_keys: c.response && typeof c.response === 'object' && !Array.isArray(c.response) ? Object.keys(c.response).sort() : []};
      const caught = c.status === 200 && makers.test(c.op) ? captures(c.response, '', []) : [];
      // A new access key is no hex id: a later revoke sends it back.
      const accessKey = c.status === 200 && c.op === 'auth.create_credentials' ? c.response?.credentials?.access_key : undefined;
      if (typeof accessKey === 'string' && accessKey && !names.has(accessKey)) {
        const ph = `{{new:${++made}}}`;
        names.set(accessKey, ph);
        caught.push({path: 'credentials.access_key', as: ph});
      }
      // Scroll ids are the server's own tokens: a later call sends back
      // the one this answer gave.
      const scroll = c.status === 200 ? c.response?.scroll_id : undefined;
      if (typeof scroll === 'string' && scroll && !names.has(scroll)) {
        const ph = `{{scroll:${++scrolls}}}`;
        names.set(scroll, ph);
        caught.push({path: 'scroll_id', as: ph});
      }
      if (caught.length) call.captures = caught;
      calls.push(call);
    }
  }
  fs.mkdirSync(path.dirname(file), {recursive: true});
  fs.writeFileSync(file, JSON.stringify({note: `Recorded from ${label} by e2e/webapp/drive.mjs; ids are placeholders.`, calls}, null, 1) + '\n');
}

// node fixture.mjs OUT_DIR FIXTURE rewrites the fixture from a drive's
// calls.json and server.json.
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1])) && process.argv.length === 4) {
  const [dir, out] = process.argv.slice(2);
  const server = JSON.parse(fs.readFileSync(path.join(dir, 'server.json'), 'utf8'));
  let label;
  try {
    label = JSON.parse(fs.readFileSync(path.join(dir, 'app.json'), 'utf8')).label;
  } catch { /* a run from before app.json */ }
  writeFixture(out, JSON.parse(fs.readFileSync(path.join(dir, 'calls.json'), 'utf8')), server.seeded, label);
}
