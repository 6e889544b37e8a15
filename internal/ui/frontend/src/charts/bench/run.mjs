// Chart benchmark: draws 4 series of 250,000 points in headless Chromium
// with the scalars panel's chart code, and (given a server and a task)
// times the 1,000,000-point path: histogram samples read and drawn.
//
//   node src/charts/bench/run.mjs                       synthetic only
//   BASE=http://127.0.0.1:8080 KEY=K SECRET=S TASK=<id> node src/charts/bench/run.mjs
//
// PLAYWRIGHT names playwright-core's folder (default: e2e/webapp's copy);
// CHROMIUM the browser (default /usr/bin/chromium).

import * as esbuild from 'esbuild';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../../../../../..');
const pw = process.env.PLAYWRIGHT || path.join(repo, 'e2e/webapp/node_modules/playwright-core');
const { chromium } = createRequire(import.meta.url)(pw);

const built = await esbuild.build({
  entryPoints: [path.join(here, 'entry.js')], bundle: true, write: false, format: 'iife', minify: true,
  jsx: 'automatic', jsxImportSource: 'preact', outdir: '/bench', logLevel: 'warning',
});
const js = built.outputFiles.find(f => f.path.endsWith('.js')).text;
const css = built.outputFiles.find(f => f.path.endsWith('.css'))?.text || '';

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
const errors = [];
page.on('pageerror', e => errors.push(e.message));

const median = runs => {
  const out = {};
  for (const k of Object.keys(runs[0])) {
    const v = runs.map(r => r[k]);
    out[k] = typeof v[0] === 'number' ? v.sort((a, b) => a - b)[Math.floor(v.length / 2)] : v[0];
  }
  return out;
};

// load opens a page holding the bench code; with a base URL the page is
// served (by the browser itself) on the server's origin, so the API calls
// carry the session cookie.
const html = `<!doctype html><html><head><style>${css}</style></head><body><script>${js.replace(/<\/script/g, '<\\/script')}</script></body></html>`;
async function load(base) {
  if (!base) { await page.setContent(html); return; }
  await page.route(`${base}/__chart-bench`, route => route.fulfill({ contentType: 'text/html', body: html }));
  await page.goto(`${base}/__chart-bench`);
}

await load(null);
const runs = [];
for (let i = 0; i < 5; i++) runs.push(await page.evaluate(() => window.benchSynthetic(250000, 4)));
console.log('4 x 250,000 points (median of 5):', JSON.stringify(median(runs)));

if (process.env.BASE && process.env.TASK) {
  const base = process.env.BASE;
  const auth = 'Basic ' + Buffer.from(`${process.env.KEY}:${process.env.SECRET}`).toString('base64');
  const res = await page.request.post(`${base}/api/auth.login`, { headers: { Authorization: auth }, data: {} });
  if (!res.ok()) throw new Error('login failed: ' + res.status());
  await load(base);
  const h = [];
  for (let i = 0; i < 5; i++) h.push(await page.evaluate(t => window.benchHistogram(t), process.env.TASK));
  console.log('stored series through the histogram (median of 5):', JSON.stringify(median(h)));
}
if (errors.length) { console.error('page errors:', errors); process.exitCode = 1; }
await browser.close();
