// Drives the real ClearML web app, served by `trove serve --webapp-dir`,
// in headless Chromium: starts a Trove, seeds it with the real SDK and the
// API, opens every page issue 13 lists, performs its actions, and records
// every API call the app makes (method, operation, request body, status,
// answer), every error dialog and notification, and every console error.
//
// Usage (from the repo root; see README.md here):
//   go build -o bin/trove ./cmd/trove
//   (cd e2e/webapp && npm ci)
//   TROVE_WEBAPP_DIR=/path/to/build/browser node e2e/webapp/drive.mjs
//
// Environment:
//   TROVE_WEBAPP_DIR      the web app build (required)
//   TROVE_BIN             server binary (default <repo>/bin/trove)
//   TROVE_E2E_PYTHON      python with clearml installed (default: scripts/e2e-venv)
//   WEBAPP_E2E_PORT       first of three ports: API, files, web (default 19050)
//   WEBAPP_E2E_OUT        where calls.json, summary.md and the screenshots go
//                         (default e2e/webapp/out)
//   WEBAPP_E2E_FIXTURE    also write the replay fixture there
//                         (e.g. internal/webapp/testdata/app_calls.json)
//   WEBAPP_E2E_CONFIG     a trove YAML config (e.g. with username/password users)
//   WEBAPP_E2E_USER, WEBAPP_E2E_PASSWORD
//                         log in through the login page with these when the
//                         server offers basic login; otherwise the session
//                         cookie comes from auth.login with the admin key
//   CHROMIUM              browser binary (default /usr/bin/chromium)
//   WEBAPP_E2E_KEEP=1     leave the seeded Trove running (its details go to
//                         server.json in the output folder)
//   WEBAPP_E2E_REUSE=DIR  drive the Trove a kept run left (DIR/server.json)
//                         instead of starting and seeding one
//   WEBAPP_E2E_ONLY       a regular expression: run only the steps it matches
//   WEBAPP_E2E_UPDATES=real
//                         let the app's daily update check go out to
//                         updates.clear.ml; by default the drive answers it
//                         itself with "no updates" ({}), because on a machine
//                         without internet access the newest app throws the
//                         failed check as an uncaught page error on every page
//                         (see README.md)
// Exit status: 0 when no call failed, no error dialog opened, no uncaught
// page error was thrown and every action completed, 1 otherwise.

import {chromium} from 'playwright-core';
import {spawn, execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {pages} from './pages.mjs';
import {seedAPI} from './seed_api.mjs';
import {Recorder, failed, abortedByBrowser} from './recorder.mjs';
import {writeFixture} from './fixture.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const env = process.env;
const webappDir = env.TROVE_WEBAPP_DIR;
if (!webappDir) {
  console.error('drive: set TROVE_WEBAPP_DIR to a ClearML web app build (the folder with index.html)');
  process.exit(2);
}
// What the build can do decides the steps that need it: the Workloads tab
// and the advanced search came with clearml-web 2.4.
const app = appOf(webappDir);
const port = Number(env.WEBAPP_E2E_PORT || 19050);
// The app's update check (POST once a day, and on every load until one
// succeeds): never Trove's; answered by the drive unless WEBAPP_E2E_UPDATES=real.
const updateCheck = 'https://updates.clear.ml/**';
const outDir = path.resolve(env.WEBAPP_E2E_OUT || path.join(here, 'out'));
const shotsDir = path.join(outDir, 'shots');
fs.mkdirSync(shotsDir, {recursive: true});

const key = 'WEBAPPE2EKEY' + Math.random().toString(36).slice(2, 14).toUpperCase().padEnd(12, 'X');
const secret = 'webapp-e2e-secret-' + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
const api = `http://127.0.0.1:${port}`;
const files = `http://127.0.0.1:${port + 1}`;
const web = `http://127.0.0.1:${port + 2}`;

function startTrove() {
  const bin = env.TROVE_BIN || path.join(repo, 'bin', 'trove');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-webapp-e2e-'));
  const args = ['serve', '--data-dir', dataDir, '--api-addr', `127.0.0.1:${port}`, '--files-addr', `127.0.0.1:${port + 1}`,
    '--web-addr', `127.0.0.1:${port + 2}`, '--webapp-dir', webappDir, '--log-level', 'warn'];
  if (env.WEBAPP_E2E_CONFIG) args.push('--config', env.WEBAPP_E2E_CONFIG);
  const log = fs.openSync(path.join(outDir, 'trove.log'), 'w');
  const proc = spawn(bin, args, {env: {...env, TROVE_ADMIN_KEY: key, TROVE_ADMIN_SECRET: secret}, stdio: ['ignore', log, log]});
  return {proc, dataDir};
}

// appOf reads what the build is (trove-build.txt, written by build-webapp)
// and which of the newer features its code has.
function appOf(dir) {
  const has = {workloads: false, advancedSearch: false};
  for (const f of fs.readdirSync(dir)) {
    if (!f.endsWith('.js')) continue;
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    if (text.includes('organization.get_project_workloads')) has.workloads = true;
    if (text.includes('advancedButton')) has.advancedSearch = true;
  }
  let build = '';
  try {
    build = fs.readFileSync(path.join(dir, 'trove-build.txt'), 'utf8').trim();
  } catch { /* a build made otherwise */ }
  return {build, has, label: env.WEBAPP_E2E_APP || (build ? `clearml-web ${build.slice(0, 12)}` : 'the ClearML web app')};
}

async function waitUp(url, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch { /* not yet */ }
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

function seedSDK() {
  const python = env.TROVE_E2E_PYTHON || path.join(execFileSync(path.join(repo, 'scripts', 'e2e-venv')).toString().trim(), 'bin', 'python');
  const out = execFileSync(python, [path.join(here, 'seed.py')], {
    env: {
      ...env, CLEARML_API_HOST: api, CLEARML_FILES_HOST: files, CLEARML_WEB_HOST: web,
      CLEARML_API_ACCESS_KEY: key, CLEARML_API_SECRET_KEY: secret, HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'webapp-e2e-home-')),
    },
    stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20, timeout: 900000,
  }).toString();
  const line = out.split('\n').find(l => l.startsWith('SEED_RESULT '));
  return JSON.parse(line.slice('SEED_RESULT '.length));
}

async function login(context, page, {api, web, key, secret}) {
  const modes = await (await fetch(`${api}/login.supported_modes`, {method: 'POST', body: '{}'})).json();
  if (modes.data?.basic?.enabled && env.WEBAPP_E2E_USER) {
    await page.goto(`${web}/login`);
    await page.locator('input[name="name"], input[autocomplete="username"], input[type="text"]').first().fill(env.WEBAPP_E2E_USER);
    await page.locator('input[type="password"]').first().fill(env.WEBAPP_E2E_PASSWORD || '');
    await page.locator('button[type="submit"], button:has-text("Log in"), button:has-text("LOGIN")').first().click();
    await page.waitForURL(u => !u.pathname.startsWith('/login'), {timeout: 20000});
    return 'login page (basic)';
  }
  const r = await fetch(`${api}/auth.login`, {method: 'POST', body: '{}', headers: {Authorization: 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64')}});
  const token = (await r.json()).data.token;
  await context.addCookies([{name: 'clearml_token_basic', value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax'}]);
  return 'session cookie from auth.login (key/secret)';
}

async function startAndSeed() {
  const {proc} = startTrove();
  const stop = () => proc.kill('SIGTERM');
  process.on('SIGINT', () => { stop(); process.exit(130); });
  process.on('SIGTERM', () => { stop(); process.exit(143); });
  let seeded;
  try {
    await waitUp(`${api}/debug.ping`);
    await waitUp(`${web}/configuration.json`);
    console.log('drive: seeding with the clearml SDK');
    seeded = await seedAPI({api, key, secret, sdk: seedSDK()});
  } catch (err) {
    stop();
    throw err;
  }
  const server = {api, files, web, key, secret, seeded, pid: proc.pid};
  fs.writeFileSync(path.join(outDir, 'server.json'), JSON.stringify(server, null, 2));
  return {server, stop: env.WEBAPP_E2E_KEEP ? () => proc.unref() : stop};
}

async function main() {
  let server, stop = () => {};
  if (env.WEBAPP_E2E_REUSE) {
    server = JSON.parse(fs.readFileSync(path.join(env.WEBAPP_E2E_REUSE, 'server.json'), 'utf8'));
  } else {
    ({server, stop} = await startAndSeed());
  }
  const seeded = server.seeded;
  const only = env.WEBAPP_E2E_ONLY ? new RegExp(env.WEBAPP_E2E_ONLY, 'i') : null;
  let code = 1;
  try {
    const browser = await chromium.launch({
      executablePath: env.CHROMIUM || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    });
    const context = await browser.newContext({viewport: {width: 1600, height: 1000}});
    context.setDefaultTimeout(8000);
    if (env.WEBAPP_E2E_UPDATES !== 'real') {
      await context.route(updateCheck, route => route.fulfill({status: 200, contentType: 'application/json', body: '{}'}));
    }
    const page = await context.newPage();
    const rec = new Recorder(page);
    rec.step('login');
    const how = await login(context, page, server);
    console.log('drive: logged in by', how);
    console.log(`drive: ${app.label}; Workloads tab: ${app.has.workloads}, advanced search: ${app.has.advancedSearch}; ` +
      `update check: ${env.WEBAPP_E2E_UPDATES === 'real' ? 'goes out' : 'answered by the drive'}`);
    for (const p of pages(server.web, {...seeded, sessionKey: server.key}, app.has)) {
      if (only && !only.test(p.name)) continue;
      rec.step(p.name);
      process.stdout.write(`drive: ${p.name} ... `);
      let note = '';
      try {
        if (p.url) await page.goto(p.url, {waitUntil: 'domcontentloaded'});
        await rec.settle();
        if (p.act) {
          // An error dialog left by loading the page would block the clicks.
          await rec.collectDialogs();
          await rec.closeDialogs();
          note = (await p.act(page, seeded, rec)) || '';
          await rec.settle();
        }
      } catch (err) {
        note = `action did not complete: ${String(err.message || err).split('\n')[0]}`;
      }
      await rec.collectDialogs();
      await page.screenshot({path: path.join(shotsDir, `${String(rec.stepIndex).padStart(2, '0')}-${p.name.replace(/[^a-z0-9]+/gi, '-')}.png`)});
      rec.note(note);
      await rec.closeDialogs();
      const s = rec.current();
      const cut = s.calls.filter(abortedByBrowser).length;
      console.log(`${s.calls.length} calls, ${s.calls.filter(failed).length} failed${cut ? `, ${cut} cut short by leaving the page` : ''}` +
        `${s.dialogs.length ? `, ${s.dialogs.length} error dialogs` : ''}${s.pageErrors.length ? `, ${s.pageErrors.length} page errors` : ''}` +
        `${note ? ' (' + note + ')' : ''}`);
    }
    await browser.close();
    fs.writeFileSync(path.join(outDir, 'calls.json'), JSON.stringify(rec.steps, null, 1));
    fs.writeFileSync(path.join(outDir, 'summary.md'), rec.summary(how, `${app.label}; update check ${env.WEBAPP_E2E_UPDATES === 'real' ? 'sent to updates.clear.ml' : 'answered by the drive'}`));
    fs.writeFileSync(path.join(outDir, 'app.json'), JSON.stringify(app, null, 2));
    if (env.WEBAPP_E2E_FIXTURE) writeFixture(env.WEBAPP_E2E_FIXTURE, rec.steps, seeded, app.label);
    console.log(`drive: wrote ${outDir}/summary.md`);
    code = rec.failures() === 0 ? 0 : 1;
  } finally {
    stop();
  }
  process.exit(code);
}

main().catch(err => {
  console.error(err);
  process.exit(1);
});
