// Times the redraw after a zoom on a running Trove (zoom.mjs measureZoom),
// for a task whose metric "big" has a one-point spike of value 50 (as
// budget.mjs seeds it: `node budget.mjs --only zoom` seeds a fresh server
// instead).
//
// Usage: node e2e/ui/zoom-bench.mjs --web http://HOST:8080 --api http://HOST:8008 \
//          --key KEY --secret SECRET --task TASK --spike-at ITER [--runs 5] [--shots DIR]

import {parseArgs} from 'node:util';
import {sessionToken} from './server.mjs';
import {contextOptions} from './harness.mjs';
import {launchBrowser} from './suite.mjs';
import {measureZoom} from './zoom.mjs';

const {values: o} = parseArgs({options: {
  web: {type: 'string'}, api: {type: 'string'}, key: {type: 'string'}, secret: {type: 'string'},
  task: {type: 'string'}, 'spike-at': {type: 'string'}, runs: {type: 'string', default: '5'}, shots: {type: 'string', default: ''},
}});
for (const k of ['web', 'api', 'key', 'secret', 'task', 'spike-at']) {
  if (!o[k]) { console.error(`zoom-bench: --${k} is required`); process.exit(2); }
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return {median: Math.round(s[Math.floor(s.length / 2)]), min: Math.round(s[0]), max: Math.round(s[s.length - 1]), runs: s.length};
}

const browser = await launchBrowser();
try {
  const context = await browser.newContext(contextOptions);
  await context.addCookies([{name: 'clearml_token_basic', value: await sessionToken({api: o.api, key: o.key, secret: o.secret}), url: o.web, httpOnly: true, sameSite: 'Lax'}]);
  const r = await measureZoom(await context.newPage(), `${o.web}/projects/*/experiments/${o.task}/output/metrics/scalar`,
    {spikeAt: Number(o['spike-at']), runs: Number(o.runs), shotDir: o.shots, stats});
  const ms = x => `${x.median} ms median (min ${x.min}, max ${x.max}, ${x.runs} runs)`;
  console.log(`redraw after a zoom to a tenth: ${ms(r.firstZoom)}\nto a twentieth of that (raw points): ${ms(r.secondZoom)}\ndouble-click back: ${ms(r.reset)}`);
  console.log(`spike: ${r.spike.join(' | ')}`);
} finally {
  await browser.close();
}
