// A small test runner for the UI cases: each case gets a new page (in the
// logged-in context, or a fresh one without a session), a time limit, a
// screenshot at its end, and a watch on everything the page does wrong:
// page errors, console errors, requests that failed or answered 4xx/5xx
// (but those the case allows). Results go to stdout and a JUnit file.

import fs from 'node:fs';
import path from 'node:path';

// Watcher records what went wrong on one page.
export class Watcher {
  constructor(page, allow = () => false) {
    this.problems = [];
    this.console = [];
    this.allowed = [];
    this.pending = [];
    page.on('pageerror', err => this.problems.push(`page error: ${String(err.stack || err.message || err).split('\n').slice(0, 3).join(' | ')}`));
    page.on('console', msg => {
      if (msg.type() !== 'error') return;
      const text = msg.text();
      this.console.push(text.slice(0, 500));
      // A failed request logs "Failed to load resource"; the request
      // checks below judge it (and allow the expected 401s).
      if (!/^Failed to load resource/.test(text)) this.problems.push(`console error: ${text.slice(0, 500)}`);
    });
    page.on('requestfailed', req => {
      const why = req.failure()?.errorText || 'failed';
      // The browser cancels a page's fetches when it navigates or closes.
      if (/ERR_ABORTED/.test(why)) return;
      this.problems.push(`request failed: ${req.method()} ${shortURL(req.url())}: ${why}`);
    });
    page.on('response', resp => {
      if (resp.status() < 400) return;
      const info = {status: resp.status(), url: resp.url(), op: apiOp(resp.url())};
      const done = (async () => {
        if (info.op) {
          try { info.msg = (await resp.json())?.meta?.result_msg; } catch { /* not an envelope */ }
        }
        const line = `${resp.request().method()} ${shortURL(info.url)} -> ${info.status}${info.msg ? ` (${info.msg})` : ''}`;
        if (allow(info)) this.allowed.push(line);
        else this.problems.push(`request answered ${line}`);
      })();
      this.pending.push(done);
    });
  }

  async settle() {
    await Promise.allSettled(this.pending);
  }
}

function shortURL(u) {
  try {
    const x = new URL(u);
    return x.pathname + x.search;
  } catch {
    return u;
  }
}

// apiOp names the operation of a /api/<op> URL, else ''.
export function apiOp(u) {
  try {
    const m = /^\/api\/(?:v[\d.]+\/)?([a-z_]+\.[a-z_0-9]+)$/.exec(new URL(u).pathname);
    return m ? m[1] : '';
  } catch {
    return '';
  }
}

function slug(s) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80);
}

// runCases runs each case and returns [{name, ok, seconds, error, shot}].
// A case: {name, run(t), fresh?: true (no session), allow?(info)}; t has
// page, context, server, seeded, shot(label).
export async function runCases({browser, session, cases, server, seeded, outDir, caseTimeout, only}) {
  const results = [];
  let n = 0;
  for (const c of cases) {
    if (only && !only.test(c.name)) continue;
    n++;
    const t0 = Date.now();
    const context = c.fresh ? await browser.newContext(contextOptions) : session;
    const page = await context.newPage();
    const watch = new Watcher(page, c.allow);
    const base = `${String(n).padStart(2, '0')}-${slug(c.name)}`;
    const shots = [];
    const t = {
      page, context, server, seeded,
      // shot writes a screenshot of the viewport, or with {fullPage: true}
      // of the whole page.
      shot: async (label, {fullPage = false} = {}) => {
        const file = path.join(outDir, `${base}${label ? '-' + slug(label) : ''}.png`);
        await page.screenshot({path: file, fullPage}).catch(() => {});
        shots.push(path.basename(file));
      },
    };
    let error = null;
    let timer;
    try {
      const running = c.run(t);
      // A case cut short by its time limit fails later, on the closed page:
      // that late rejection is not news.
      running.catch(() => {});
      await Promise.race([
        running,
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`the case took more than ${caseTimeout / 1000} s`)), caseTimeout); }),
      ]);
      // Late errors of the last action count too.
      await page.waitForTimeout(300);
    } catch (err) {
      error = err;
    } finally {
      clearTimeout(timer);
    }
    await t.shot(error ? 'failed' : '');
    await watch.settle();
    const problems = [...watch.problems];
    let message = '';
    if (error) message += `${String(error.message || error).split('\n').slice(0, 6).join('\n')}\n`;
    if (problems.length) message += `the page went wrong:\n${problems.map(p => '  - ' + p).join('\n')}\n`;
    if (message && watch.console.length) message += `its console errors:\n${watch.console.slice(0, 10).map(p => '  - ' + p).join('\n')}\n`;
    if (message && watch.allowed.length) message += `(allowed: ${watch.allowed.join('; ')})\n`;
    if (message) message += `url at the end: ${page.url()}\n`;
    await page.close().catch(() => {});
    if (c.fresh) await context.close().catch(() => {});
    const r = {name: c.name, ok: !message, seconds: (Date.now() - t0) / 1000, error: message.trimEnd(), shots};
    results.push(r);
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${c.name} (${r.seconds.toFixed(1)} s)`);
    if (!r.ok) console.log(r.error.split('\n').map(l => '     ' + l).join('\n'));
  }
  return results;
}

export const contextOptions = {viewport: {width: 1440, height: 900}};

// writeJUnit writes results as one JUnit test suite.
export function writeJUnit(file, suite, results) {
  const esc = s => String(s).replace(/[<>&"]/g, ch => ({'<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;'}[ch]))
    // eslint-disable-next-line no-control-regex
    .replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, '');
  const failures = results.filter(r => !r.ok).length;
  const total = results.reduce((s, r) => s + r.seconds, 0);
  const lines = [`<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuite name="${esc(suite)}" tests="${results.length}" failures="${failures}" errors="0" skipped="0" time="${total.toFixed(3)}">`];
  for (const r of results) {
    lines.push(`  <testcase classname="${esc(suite)}" name="${esc(r.name)}" time="${r.seconds.toFixed(3)}">`);
    if (!r.ok) lines.push(`    <failure message="${esc(r.error.split('\n')[0])}">${esc(r.error)}</failure>`);
    lines.push('  </testcase>');
  }
  lines.push('</testsuite>', '');
  fs.mkdirSync(path.dirname(file), {recursive: true});
  fs.writeFileSync(file, lines.join('\n'));
}
