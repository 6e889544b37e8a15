// Drives the MLflow UI, served by `trove serve --mlflow-ui-dir`, in
// headless Chromium: starts a Trove, seeds it with MLflow's own client
// (seed.py), logs in through Trove's login page (the MLflow UI has none),
// opens a GenAI experiment's overview (its charts: traces/metrics), the
// experiments list, an experiment's runs, a run (overview with
// params, metric charts, artifacts with a file shown), the logged models,
// the model registry, a registered model and a version, and records every
// call the UI makes that fails, every uncaught page error, console error
// and Content-Security-Policy violation, with a screenshot per page.
//
// Usage (from the repo root; see README.md here):
//   go build -o bin/trove ./cmd/trove
//   (cd e2e/mlflowui && npm ci)
//   node e2e/mlflowui/drive.mjs
//
// Environment:
//   TROVE_BIN             server binary (default <repo>/bin/trove)
//   TROVE_E2E_PYTHON      python with mlflow installed (default: scripts/e2e-venv's)
//   TROVE_MLFLOW_UI_DIR   the UI's build (default: mlflow/server/js/build of that python's mlflow)
//   MLFLOWUI_E2E_DB       --db URL (default: SQLite in a temp data dir)
//   MLFLOWUI_E2E_PORT     first of three ports: API, files, web (default 19400)
//   MLFLOWUI_E2E_OUT      where summary.md, calls.json and shots/ go (default e2e/mlflowui/out)
//   MLFLOWUI_E2E_IGNORE   a regular expression of call paths whose failures are
//                         reported but do not fail the run (e.g. 'graphql')
//   CHROMIUM              browser binary (default /usr/bin/chromium)
// Exit status: 0 when every page showed what it should and no call, page
// error or console error (CSP violations among them) failed
// (calls matching MLFLOWUI_E2E_IGNORE aside), 1 otherwise.

import {chromium} from 'playwright-core';
import {spawn, execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {pages} from './pages.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const env = process.env;
const port = Number(env.MLFLOWUI_E2E_PORT || 19400);
const outDir = path.resolve(env.MLFLOWUI_E2E_OUT || path.join(here, 'out'));
const shotsDir = path.join(outDir, 'shots');
fs.rmSync(shotsDir, {recursive: true, force: true});
fs.mkdirSync(shotsDir, {recursive: true});
const ignore = env.MLFLOWUI_E2E_IGNORE ? new RegExp(env.MLFLOWUI_E2E_IGNORE) : null;

const key = 'MLFLOWUIKEY' + Math.random().toString(36).slice(2, 11).toUpperCase().padEnd(9, 'X');
const secret = 'mlflow-ui-e2e-' + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
const api = `http://127.0.0.1:${port}`;
const web = `http://127.0.0.1:${port + 2}`;

const python = env.TROVE_E2E_PYTHON ||
  path.join(execFileSync(path.join(repo, 'scripts', 'e2e-venv')).toString().trim(), 'bin', 'python');
const uiDir = env.TROVE_MLFLOW_UI_DIR || execFileSync(python, ['-c',
  'import mlflow, os; print(os.path.join(os.path.dirname(mlflow.__file__), "server", "js", "build"))']).toString().trim();
const mlflowVersion = execFileSync(python, ['-c', 'import mlflow; print(mlflow.__version__)']).toString().trim();

function startTrove() {
  const bin = env.TROVE_BIN || path.join(repo, 'bin', 'trove');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-mlflowui-e2e-'));
  const args = ['serve', '--data-dir', dataDir, '--api-addr', `127.0.0.1:${port}`, '--files-addr', `127.0.0.1:${port + 1}`,
    '--web-addr', `127.0.0.1:${port + 2}`, '--mlflow-ui-dir', uiDir, '--log-level', 'warn'];
  if (env.MLFLOWUI_E2E_DB) args.push('--db', env.MLFLOWUI_E2E_DB);
  const log = fs.openSync(path.join(outDir, 'trove.log'), 'w');
  return spawn(bin, args, {env: {...env, TROVE_ADMIN_KEY: key, TROVE_ADMIN_SECRET: secret}, stdio: ['ignore', log, log]});
}

async function waitUp(url, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch { /* not yet */ }
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

function seed() {
  const out = execFileSync(python, [path.join(here, 'seed.py')], {
    env: {...env, MLFLOW_TRACKING_URI: api, MLFLOW_TRACKING_USERNAME: key, MLFLOW_TRACKING_PASSWORD: secret,
      MLFLOW_HTTP_REQUEST_MAX_RETRIES: '1', HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'mlflowui-e2e-home-'))},
    stdio: ['ignore', 'pipe', 'inherit'], timeout: 600000,
  }).toString();
  const line = out.split('\n').find(l => l.startsWith('SEED_RESULT '));
  if (!line) throw new Error('seed.py printed no SEED_RESULT line');
  return JSON.parse(line.slice('SEED_RESULT '.length));
}

// The UI's calls are the requests under /mlflow/ that are not its files.
const isCall = u => u.pathname.startsWith('/mlflow/') && !u.pathname.startsWith('/mlflow/static-files/') &&
  u.pathname !== '/mlflow/';

function record(page, steps) {
  const cur = () => steps[steps.length - 1];
  page.on('response', async resp => {
    const u = new URL(resp.url());
    if (!isCall(u) && resp.status() < 400) return;
    const req = resp.request();
    const call = {method: req.method(), path: u.pathname, query: u.search, status: resp.status()};
    if (req.postData()) call.body = req.postData().slice(0, 2000);
    if (resp.status() >= 400 || u.pathname.endsWith('/graphql')) {
      try {
        const text = await resp.text();
        // GraphQL answers 200 with an "errors" member for a field it lacks
        if (resp.status() >= 400 || /"errors"\s*:\s*\[\s*["{]/.test(text)) {
          call.answer = text.slice(0, 2000);
          if (resp.status() < 400) call.graphqlErrors = true;
        }
      } catch { /* the page moved on */ }
    }
    cur().calls.push(call);
  });
  page.on('requestfailed', req => {
    const u = new URL(req.url());
    cur().calls.push({method: req.method(), path: u.pathname, query: u.search, status: 0, answer: req.failure()?.errorText});
  });
  page.on('pageerror', err => cur().pageErrors.push(String(err.message || err).split('\n')[0]));
  page.on('console', msg => {
    if (msg.type() !== 'error') return;
    // the browser logs each 404 of a not-offered app as a console error: not a failure
    const at = msg.location()?.url || '';
    if (/^Failed to load resource: .*404/.test(msg.text()) && at && offeredNot.test(new URL(at).pathname)) return;
    // Chromium's notice that a ResizeObserver callback resized what it observes
    // (the UI's grids do, timing-dependent): layout, not a failure of anything
    if (/ResizeObserver loop (completed with undelivered notifications|limit exceeded)/.test(msg.text())) return;
    cur().consoleErrors.push(msg.text().slice(0, 500) + (at ? ` (${at})` : ''));
  });
}

// Paths the UI asks and reads a 404 from as "not offered", which MLflow's
// own server answers so too unless started with those apps: the current
// user (its basic-auth app) and the assistant (a local coding agent).
const offeredNot = /^\/mlflow\/ajax-api\/(2\.0\/mlflow\/users\/current|3\.0\/mlflow\/assistant\/)/;
const failedCall = c => c.graphqlErrors || (c.status >= 400 && !(c.status === 404 && offeredNot.test(c.path))) ||
  (c.status === 0 && c.answer !== 'net::ERR_ABORTED');
const counts = c => failedCall(c) && !(ignore && ignore.test(c.path));

async function main() {
  const proc = startTrove();
  const stop = () => proc.kill('SIGTERM');
  process.on('SIGINT', () => { stop(); process.exit(130); });
  let code = 1;
  try {
    await waitUp(`${api}/debug.ping`);
    console.log(`drive: mlflow ${mlflowVersion}, UI build ${uiDir}; seeding with MLflow's client`);
    const seeded = seed();
    const browser = await chromium.launch({
      executablePath: env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({viewport: {width: 1600, height: 1000}});
    context.setDefaultTimeout(15000);
    // CSP violations are reported to the page: count them as page errors.
    await context.addInitScript(() => document.addEventListener('securitypolicyviolation',
      e => console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`)));
    const page = await context.newPage();
    const steps = [];
    record(page, steps);
    for (const p of pages(web, seeded, {key, secret})) {
      steps.push({name: p.name, calls: [], pageErrors: [], consoleErrors: [], note: ''});
      const s = steps[steps.length - 1];
      process.stdout.write(`drive: ${p.name} ... `);
      try {
        await p.run(page);
        await page.waitForLoadState('networkidle', {timeout: 10000}).catch(() => {});
      } catch (err) {
        s.note = `did not complete: ${String(err.message || err).split('\n')[0]}`;
      }
      await page.screenshot({path: path.join(shotsDir, `${String(steps.length).padStart(2, '0')}-${p.name.replace(/[^a-z0-9]+/gi, '-')}.png`)});
      const bad = s.calls.filter(failedCall);
      console.log(`${s.calls.length} calls, ${bad.length} failed` +
        `${s.pageErrors.length ? `, ${s.pageErrors.length} page errors` : ''}` +
        `${s.consoleErrors.length ? `, ${s.consoleErrors.length} console errors` : ''}${s.note ? ' (' + s.note + ')' : ''}`);
    }
    await browser.close();
    fs.writeFileSync(path.join(outDir, 'calls.json'), JSON.stringify(steps, null, 1));
    fs.writeFileSync(path.join(outDir, 'summary.md'), summary(steps));
    const failures = steps.reduce((n, s) => n + s.calls.filter(counts).length + s.pageErrors.length +
      s.consoleErrors.length + (s.note ? 1 : 0), 0);
    const total = k => steps.reduce((n, s) => n + (k === 'calls' ? s.calls.filter(counts).length : s[k].length), 0);
    console.log(`drive: wrote ${outDir}/summary.md; ${failures} failures`);
    console.log(`mlflow ui drive: ${steps.length} pages, ${steps.reduce((n, s) => n + s.calls.length, 0)} calls, ` +
      `${total('calls')} failed calls, ${total('pageErrors')} page errors, ${total('consoleErrors')} console errors ` +
      `(CSP violations among them), ${steps.filter(s => s.note).length} pages not as expected`);
    code = failures === 0 ? 0 : 1;
  } finally {
    stop();
  }
  process.exit(code);
}

function summary(steps) {
  const lines = [`# The MLflow UI (mlflow ${mlflowVersion}) on Trove`, '',
    ignore ? `Failures of calls matching \`${ignore.source}\` are listed but do not fail the run.\n` : ''];
  for (const s of steps) {
    lines.push(`## ${s.name}`, '', `${s.calls.length} calls${s.note ? `; ${s.note}` : ''}`, '');
    for (const c of s.calls.filter(failedCall)) {
      lines.push(`- FAILED ${c.method} ${c.path}${c.query} -> ${c.status}: ${(c.answer || '').replace(/\s+/g, ' ').slice(0, 300)}`);
    }
    for (const e of s.pageErrors) lines.push(`- page error: ${e}`);
    for (const e of s.consoleErrors) lines.push(`- console error: ${e.replace(/\s+/g, ' ').slice(0, 300)}`);
    lines.push('');
  }
  return lines.join('\n');
}

main().catch(err => {
  console.error(err);
  process.exit(1);
});
