// Trove's own web UI in headless Chromium: starts a fresh bin/trove on
// the given database, seeds it once with the real clearml SDK, runs every
// case of cases.mjs in its own page, and writes a screenshot per case,
// trove's log and a JUnit file. Usually started by e2e/ui/run (which
// makes the PostgreSQL database and installs what is missing).
//
// Usage: node e2e/ui/suite.mjs [--backend NAME] [--db URL]
//   --backend   a label for the output folder and the JUnit suite (default sqlite)
//   --db        trove's --db (default: SQLite in its data dir)
//
// Environment:
//   TROVE_BIN               server binary (default <repo>/bin/trove)
//   TROVE_E2E_VENV          the e2e venv (default: scripts/e2e-venv prints it)
//   TROVE_E2E_ARTIFACTS     screenshots and logs go to $TROVE_E2E_ARTIFACTS/ui-<backend>
//                           (default e2e/ui/out/<backend>)
//   TROVE_E2E_JUNIT_DIR     also write ui-<backend>.xml there
//   TROVE_UI_E2E_PORT       first of three ports: API, files, web (default 21040)
//   TROVE_UI_E2E_ONLY       a regular expression: run only the cases it matches
//   TROVE_UI_E2E_WAIT_MS    how long one assertion waits (default 15000)
//   TROVE_UI_E2E_CASE_MS    how long one case may take (default 90000)
//   CHROMIUM                browser binary (default /usr/bin/chromium)
// Exit status: 0 when every case passed.

import {chromium} from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {parseArgs} from 'node:util';
import {randomKeys, sessionToken, startTrove, tail} from './server.mjs';
import {seed} from './seed.mjs';
import {contextOptions, runCases, writeJUnit} from './harness.mjs';
import {allCases} from './cases.mjs';
import {securityCases, seedAttacks} from './security.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const env = process.env;

export function outDirFor(backend) {
  return env.TROVE_E2E_ARTIFACTS ? path.resolve(env.TROVE_E2E_ARTIFACTS, `ui-${backend}`) : path.join(here, 'out', backend);
}

export function launchBrowser() {
  const executablePath = env.CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`${executablePath} not found: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM`);
  }
  return chromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

async function main() {
  const {values: opts} = parseArgs({options: {backend: {type: 'string', default: 'sqlite'}, db: {type: 'string', default: ''}}});
  const outDir = outDirFor(opts.backend);
  fs.rmSync(outDir, {recursive: true, force: true});
  fs.mkdirSync(outDir, {recursive: true});
  console.log(`ui e2e (${opts.backend}): screenshots and trove.log go to ${outDir}`);

  const t0 = Date.now();
  const server = await startTrove({
    bin: env.TROVE_BIN || path.join(repo, 'bin', 'trove'), port: Number(env.TROVE_UI_E2E_PORT || 21040),
    db: opts.db, outDir, keys: randomKeys('UIE2E'),
    // The security cases store their payloads as a guest (or a plain user
    // when guests may not write) and look at them as the admin.
    users: {
      guest: {id: 'ui-e2e-guest', role: 'guest', ...randomKeys('GUEST')},
      user: {id: 'ui-e2e-user', role: 'user', ...randomKeys('USER')},
    },
  });
  const stopAll = async code => {
    await server.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => stopAll(130));
  process.on('SIGTERM', () => stopAll(143));

  let results = [];
  let fatal = null;
  let browser;
  try {
    console.log(`ui e2e: trove up on ${server.web} (${((Date.now() - t0) / 1000).toFixed(1)} s); seeding with the clearml SDK`);
    const seeded = await seed(server);
    seeded.attacks = await seedAttacks(server, seeded);
    console.log(`ui e2e: stored the security payloads as the ${seeded.attacks.writer}`);
    fs.writeFileSync(path.join(outDir, 'seeded.json'), JSON.stringify(seeded, null, 2));
    console.log(`ui e2e: seeded (${((Date.now() - t0) / 1000).toFixed(1)} s); driving Chromium`);

    browser = await launchBrowser();
    const session = await browser.newContext(contextOptions);
    session.setDefaultTimeout(Number(env.TROVE_UI_E2E_WAIT_MS || 15000));
    await session.addCookies([{name: 'clearml_token_basic', value: await sessionToken(server), url: server.web, httpOnly: true, sameSite: 'Lax'}]);
    results = await runCases({
      browser, session, server, seeded, outDir, cases: [...allCases(seeded), ...securityCases(seeded)],
      caseTimeout: Number(env.TROVE_UI_E2E_CASE_MS || 90000),
      only: env.TROVE_UI_E2E_ONLY ? new RegExp(env.TROVE_UI_E2E_ONLY, 'i') : null,
    });
  } catch (err) {
    fatal = err;
    console.log(`ui e2e (${opts.backend}): could not run the cases: ${err.stack || err}`);
    results.push({name: 'start, seed and open the browser', ok: false, seconds: 0, error: String(err.message || err), shots: []});
  } finally {
    if (browser) await browser.close().catch(() => {});
    await server.stop();
  }
  if (server.exited() !== null && server.exited() !== 'SIGTERM' && server.exited() !== 0) {
    console.log(`ui e2e: trove exited on its own (${server.exited()}); its log:\n${tail(server.logPath)}`);
  }
  if (env.TROVE_E2E_JUNIT_DIR) writeJUnit(path.join(env.TROVE_E2E_JUNIT_DIR, `ui-${opts.backend}.xml`), `ui-${opts.backend}`, results);
  writeJUnit(path.join(outDir, 'junit.xml'), `ui-${opts.backend}`, results);
  const failed = results.filter(r => !r.ok);
  console.log(`ui e2e (${opts.backend}): ${results.length - failed.length} passed, ${failed.length} failed in ` +
    `${((Date.now() - t0) / 1000).toFixed(1)} s; screenshots in ${outDir}`);
  if (failed.length) console.log(`failed: ${failed.map(r => r.name).join('; ')}`);
  process.exit(failed.length || fatal ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch(err => {
    console.error(err);
    process.exit(1);
  });
}
