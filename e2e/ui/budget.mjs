// Measures the web UI's budget (issue 14) in headless Chromium against a
// fresh bin/trove on loopback:
//   1. bytes of a first page load, gzipped as transferred, without plotly
//      (the login page logged out; the projects page and an experiment's
//      scalars logged in), with a cold cache;
//   2. time from navigation until a page with data shows it (the
//      experiments table of 30 tasks; the scalars of a task);
//   3. time until a 4-series chart of 250,000 points each (reported with
//      events.add_batch, 1,000,000 events) is drawn on the experiment page;
//      and, as a floor independent of the page, uPlot drawing the raw
//      1,000,000 points in a blank page;
//   4. time to redraw that chart after a zoom (a drag across a tenth of
//      it, then across a twentieth of that, down to the raw points, and a
//      double-click back): from the mouse release until the range read
//      again is drawn, checking that the one-point spike of series 0 is
//      drawn each time (zoom.mjs).
// Seeds through the API only (no SDK): it measures the UI, not the seeding.
//
// Usage: (cd e2e/ui && npm ci) && node e2e/ui/budget.mjs [--db URL] [--runs 5] [--only zoom,bigChartPage]
// Environment: TROVE_BIN (default <repo>/bin/trove), CHROMIUM,
// TROVE_UI_E2E_PORT (default 21040; the budget uses the three ports from +5).
// Prints a table and writes budget.json (and a screenshot of the big
// chart, budget-4x250k.png) to e2e/ui/out/.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {addEvents, apiClient, randomKeys, sessionToken, startTrove} from './server.mjs';
import {contextOptions} from './harness.mjs';
import {launchBrowser} from './suite.mjs';
import {measureZoom, seedBig} from './zoom.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const {values: opts} = parseArgs({options: {db: {type: 'string', default: ''}, runs: {type: 'string', default: '5'}, only: {type: 'string', default: ''}}});
const only = opts.only ? new Set(opts.only.split(',')) : null;
const runs = Number(opts.runs);
const outDir = path.join(here, 'out');
// screenshots of the zoomed chart (TROVE_ZOOM_SHOTS, else outDir)
const shotDir = process.env.TROVE_ZOOM_SHOTS || outDir;
const POINTS = 250000;
const SERIES = 4;
const SPIKE_AT = 123457; // a one-point spike of series 0

async function seedBudget(server) {
  const call = apiClient(server);
  const project = (await call('projects.create', {name: 'Budget', description: 'UI budget'})).id;
  const ids = [];
  for (let i = 0; i < 30; i++) {
    const id = (await call('tasks.create', {name: `budget task ${String(i).padStart(2, '0')}`, project, type: 'training',
      hyperparams: {General: {lr: {section: 'General', name: 'lr', value: String(0.01 * (i + 1))}}}})).id;
    ids.push(id);
  }
  // A small task's scalars: 2 metrics x 2 series x 200 iterations.
  const lines = [];
  for (let it = 0; it < 200; it++) {
    for (const metric of ['loss', 'accuracy']) {
      for (const variant of ['train', 'val']) {
        lines.push(JSON.stringify({type: 'training_stats_scalar', task: ids[0], metric, variant, iter: it, value: Math.sin(it / 10) + variant.length, timestamp: Date.now()}));
      }
    }
  }
  await addEvents(server, lines);
  // The big one: 4 series of 250,000 points, a one-point spike in the first.
  const big = (await call('tasks.create', {name: 'budget 4x250k', project, type: 'training'})).id;
  const t0 = Date.now();
  await seedBig(server, big, {points: POINTS, series: SERIES, spikeAt: SPIKE_AT});
  console.log(`budget: seeded ${POINTS * SERIES} scalar events in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return {project, small: ids[0], big};
}

// transferred loads url in a cold context and sums what came over the wire
// (headers and encoded bodies), leaving plotly out and counting it apart.
async function transferred(browser, url, cookie, ready) {
  const context = await browser.newContext(contextOptions);
  if (cookie) await context.addCookies([cookie]);
  const page = await context.newPage();
  const reqs = [];
  page.on('requestfinished', r => reqs.push(r));
  await page.goto(url);
  await ready(page);
  await page.waitForTimeout(1500); // late calls (polling starts, lazy files)
  let total = 0, plotly = 0, api = 0, files = 0;
  const parts = [];
  for (const r of reqs) {
    const s = await r.sizes();
    const bytes = s.responseBodySize + s.responseHeadersSize;
    const p = new URL(r.url()).pathname;
    if (p.includes('/vendor/plotly')) { plotly += bytes; continue; }
    total += bytes;
    if (p.startsWith('/api/')) api += bytes; else files += bytes;
    parts.push(`${p} ${bytes}`);
  }
  await context.close();
  return {total, static: files, api, plotly, requests: parts.length, parts};
}

// timeToData navigates and waits for selector: milliseconds from the
// start of the navigation, median of runs (warm cache, as a person
// opening a second page).
async function timeToData(browser, cookie, url, selector) {
  const context = await browser.newContext(contextOptions);
  await context.addCookies([cookie]);
  const page = await context.newPage();
  const times = [];
  for (let i = 0; i < runs + 1; i++) {
    await page.goto('about:blank');
    const t0 = Date.now();
    await page.goto(url);
    await page.locator(selector).first().waitFor({state: 'visible', timeout: 20000});
    // The frame that shows it.
    await page.evaluate(() => new Promise(r => requestAnimationFrame(() => r())));
    if (i > 0) times.push(Date.now() - t0); // the first run warms the cache
  }
  await context.close();
  return stats(times);
}

// bigChart times the experiment page's scalars tab of the 4x250k task:
// to the canvas and through the data calls it made.
async function bigChart(browser, cookie, url) {
  const context = await browser.newContext(contextOptions);
  await context.addCookies([cookie]);
  const page = await context.newPage();
  const times = [], calls = [];
  for (let i = 0; i < runs; i++) {
    await page.goto('about:blank');
    const seen = [];
    const onDone = r => { if (r.url().includes('/api/events.')) seen.push(r); };
    page.on('requestfinished', onDone);
    const t0 = Date.now();
    await page.goto(url);
    await page.locator('[data-testid=scalar-chart][data-metric="big"] canvas').first().waitFor({state: 'visible', timeout: 20000});
    await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    times.push(Date.now() - t0);
    page.off('requestfinished', onDone);
    for (const r of seen) {
      const t = r.timing();
      const s = await r.sizes();
      calls.push(`${new URL(r.url()).pathname.slice(5)} ${Math.round(t.responseEnd - t.requestStart)} ms ${s.responseBodySize} B`);
    }
  }
  await page.screenshot({path: path.join(outDir, 'budget-4x250k.png')});
  await context.close();
  return {...stats(times), calls: [...new Set(calls)].slice(0, 8)};
}

// bigZoom zooms the 4x250k chart as a person does and times each redraw
// (zoom.mjs measureZoom).
async function bigZoom(browser, cookie, url) {
  const context = await browser.newContext(contextOptions);
  await context.addCookies([cookie]);
  try {
    return await measureZoom(await context.newPage(), url, {spikeAt: SPIKE_AT, runs, shotDir, stats});
  } finally {
    await context.close();
  }
}

// rawUPlot draws 4 x 250,000 points with the UI's own uPlot in a blank
// page: the cost of drawing raw points, whatever the page fetches.
async function rawUPlot(browser) {
  const uplotDir = path.join(repo, 'internal', 'ui', 'frontend', 'node_modules', 'uplot', 'dist');
  const js = path.join(uplotDir, 'uPlot.iife.min.js');
  if (!fs.existsSync(js)) return {skipped: 'internal/ui/frontend/node_modules missing (npm ci there first)'};
  const page = await browser.newPage(contextOptions);
  await page.setContent('<div id="c"></div>');
  await page.addStyleTag({path: path.join(uplotDir, 'uPlot.min.css')});
  await page.addScriptTag({path: js});
  const times = await page.evaluate(async ({n, k, runs}) => {
    const frame = () => new Promise(r => requestAnimationFrame(() => r()));
    const xs = new Float64Array(n).map((_, i) => i);
    const data = [xs];
    for (let s = 0; s < k; s++) data.push(new Float64Array(n).map((_, i) => Math.sin(i / 5000 + s) + s));
    const out = [];
    for (let r = 0; r < runs; r++) {
      const el = document.getElementById('c');
      el.innerHTML = '';
      const t0 = performance.now();
      const u = new uPlot({width: 1000, height: 300, series: [{}, ...Array.from({length: k}, (_, s) => ({label: 's' + s, stroke: 'red'}))]}, data, el);
      // uPlot may finish drawing in the next frame: count until it is shown.
      await frame();
      out.push(performance.now() - t0);
      u.destroy();
    }
    return out;
  }, {n: POINTS, k: SERIES, runs});
  await page.close();
  return stats(times);
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return {median: Math.round(s[Math.floor(s.length / 2)]), min: Math.round(s[0]), max: Math.round(s[s.length - 1]), runs: s.length};
}

async function main() {
  fs.mkdirSync(outDir, {recursive: true});
  fs.mkdirSync(shotDir, {recursive: true});
  const server = await startTrove({bin: process.env.TROVE_BIN || path.join(repo, 'bin', 'trove'),
    port: Number(process.env.TROVE_UI_E2E_PORT || 21040) + 5, db: opts.db, outDir, keys: randomKeys('BUDGET')});
  const result = {date: new Date().toISOString(), cores: os.cpus().length, loadBefore: os.loadavg().map(x => x.toFixed(1)).join(' ')};
  let browser;
  try {
    const seeded = await seedBudget(server);
    browser = await launchBrowser();
    const cookie = {name: 'clearml_token_basic', value: await sessionToken(server), url: server.web, httpOnly: true, sameSite: 'Lax'};
    const table = `${server.web}/projects/${seeded.project}/experiments`;
    const scalars = id => `${server.web}/projects/${seeded.project}/experiments/${id}/output/metrics/scalar`;
    const guard = async (name, fn) => {
      if (only && !only.has(name)) return;
      try { result[name] = await fn(); } catch (err) { result[name] = {failed: String(err.message || err).split('\n')[0]}; }
    };
    await guard('firstLoadLogin', () => transferred(browser, `${server.web}/projects`, null, p => p.locator('input[name=user]').waitFor()));
    await guard('firstLoadProjects', () => transferred(browser, `${server.web}/projects`, cookie,
      p => p.locator(`[data-project-id="${seeded.project}"]`).first().waitFor({timeout: 20000})));
    await guard('firstLoadScalars', () => transferred(browser, scalars(seeded.small), cookie,
      p => p.locator('[data-testid=scalar-chart] canvas').first().waitFor({timeout: 20000})));
    await guard('tableShowsData', () => timeToData(browser, cookie, table, 'tr[data-task-id]'));
    await guard('scalarsShowData', () => timeToData(browser, cookie, scalars(seeded.small), '[data-testid=scalar-chart] canvas'));
    await guard('bigChartPage', () => bigChart(browser, cookie, scalars(seeded.big)));
    await guard('rawUPlot4x250k', () => rawUPlot(browser));
    await guard('zoom', () => bigZoom(browser, cookie, scalars(seeded.big)));
  } finally {
    if (browser) await browser.close();
    await server.stop();
  }
  result.loadAfter = os.loadavg().map(x => x.toFixed(1)).join(' ');
  fs.writeFileSync(path.join(outDir, 'budget.json'), JSON.stringify(result, null, 2));
  const kb = x => (x?.total !== undefined ? `${(x.total / 1024).toFixed(1)} KB (${x.requests} requests; files ${(x.static / 1024).toFixed(1)} KB, API ${(x.api / 1024).toFixed(1)} KB; plotly apart ${(x.plotly / 1024).toFixed(1)} KB)` : JSON.stringify(x));
  const ms = x => (x?.median !== undefined ? `${x.median} ms median (min ${x.min}, max ${x.max}, ${x.runs} runs)` : JSON.stringify(x));
  console.log(`\nWeb UI budget (${result.cores} cores, load ${result.loadBefore} -> ${result.loadAfter})`);
  console.log(`first load, login page (logged out):   ${kb(result.firstLoadLogin)}`);
  console.log(`first load, projects (logged in):      ${kb(result.firstLoadProjects)}`);
  console.log(`first load, experiment scalars:        ${kb(result.firstLoadScalars)}`);
  console.log(`table of 30 tasks shows its rows:      ${ms(result.tableShowsData)}`);
  console.log(`scalars tab shows its charts:          ${ms(result.scalarsShowData)}`);
  console.log(`4x250k chart on the experiment page:   ${ms(result.bigChartPage)}${result.bigChartPage?.calls ? '\n  calls: ' + result.bigChartPage.calls.join('; ') : ''}`);
  console.log(`uPlot, raw 4x250k points, blank page:  ${ms(result.rawUPlot4x250k)}`);
  const z = result.zoom;
  if (z) {
    console.log(`4x250k chart, redraw after a zoom:      ${z.firstZoom ? `a tenth ${ms(z.firstZoom)}; a twentieth of that (raw points) ${ms(z.secondZoom)}; double-click back ${ms(z.reset)}` : JSON.stringify(z)}`);
    if (z.spike) console.log(`  spike: ${z.spike.join(' | ')}`);
  }
  console.log(`written: ${path.join(outDir, 'budget.json')}`);
}

main().catch(err => {
  console.error(err);
  process.exit(1);
});
