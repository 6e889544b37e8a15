// Writes the replay fixture: every recorded call with the seeded ids
// replaced by placeholders ({{task:resnet}}, {{project:vision}}, ...)
// that the Go contract test fills from its own seed.

import fs from 'node:fs';
import path from 'node:path';

export function writeFixture(file, steps, seeded) {
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
  const unknownId = /\b[0-9a-f]{32}\b/g;
  const swap = v => {
    if (typeof v === 'string') {
      let out = v;
      for (const [id, ph] of names) out = out.split(id).join(ph);
      return out.replace(unknownId, '{{id:other}}');
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [swap(k), swap(x)]));
    return v;
  };
  const calls = [];
  for (const s of steps) {
    for (const c of s.calls) {
      calls.push({page: s.name, op: c.op, version: c.version, method: c.method, query: c.query || '', body: swap(c.body),
        status: c.status, response_keys: c.response && typeof c.response === 'object' ? Object.keys(c.response).sort() : []});
    }
  }
  fs.mkdirSync(path.dirname(file), {recursive: true});
  fs.writeFileSync(file, JSON.stringify({note: 'Recorded from the ClearML web app v2.0 by e2e/webapp/drive.mjs; ids are placeholders.', calls}, null, 1) + '\n');
}
