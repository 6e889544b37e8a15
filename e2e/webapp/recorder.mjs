// Records what the app does during each step of the drive: its API calls
// (through /api/ of the web address), error dialogs, notifications and
// console errors.

const apiPath = /\/api\/(?:v(\d+(?:\.\d+)?)\/)?([a-z_]+\.[a-z_0-9]+)$/;

export class Recorder {
  constructor(page) {
    this.page = page;
    this.steps = [];
    this.pending = new Set();
    this.consoleWork = new Set();
    page.on('request', req => {
      if (apiPath.test(new URL(req.url()).pathname)) this.pending.add(req);
    });
    page.on('requestfinished', req => this.finished(req));
    page.on('requestfailed', req => this.failed(req));
    page.on('console', msg => {
      if (msg.type() !== 'error') return;
      const step = this.current();
      if (!step) return;
      const work = consoleText(msg).then(text => step.console.push(text), () => step.console.push(msg.text()));
      this.consoleWork.add(work);
      work.finally(() => this.consoleWork.delete(work));
    });
    page.on('pageerror', err => {
      const step = this.current();
      if (!step) return;
      const text = String(err.stack || err.message).slice(0, 2000);
      const noise = appNoise.find(n => n.text.test(text));
      if (noise) step.appNoise.push(`${text.split('\n')[0]} (${noise.why})`);
      else step.pageErrors.push(text);
      step.console.push('page error: ' + text);
    });
  }

  get stepIndex() { return this.steps.length - 1; }

  step(name) {
    this.steps.push({name, calls: [], dialogs: [], notifications: [], console: [], pageErrors: [], appNoise: [], note: ''});
  }

  current() { return this.steps[this.steps.length - 1]; }

  note(n) { this.current().note = n; }

  async finished(req) {
    const m = apiPath.exec(new URL(req.url()).pathname);
    if (!m) return;
    const step = this.current();
    const call = {op: m[2], version: m[1] || '', method: req.method(), query: new URL(req.url()).search, body: parseBody(req.postData())};
    try {
      const resp = await req.response();
      call.status = resp.status();
      const text = await resp.text();
      try {
        const env = JSON.parse(text);
        call.response = env.data;
        if (call.status !== 200) call.error = {code: env.meta?.result_code, subcode: env.meta?.result_subcode, msg: env.meta?.result_msg};
      } catch {
        call.response_bytes = text.length;
        call.content_type = resp.headers()['content-type'] || '';
      }
    } catch (err) {
      call.status = 0;
      call.error = {msg: String(err.message || err)};
    }
    step.calls.push(call);
    this.pending.delete(req);
  }

  failed(req) {
    const m = apiPath.exec(new URL(req.url()).pathname);
    this.pending.delete(req);
    if (!m) return;
    this.current().calls.push({op: m[2], version: m[1] || '', method: req.method(), body: parseBody(req.postData()), status: 0,
      error: {msg: req.failure()?.errorText || 'request failed'}});
  }

  // settle waits until no API call has been in flight for a while.
  async settle(quietMs = 1200, maxMs = 20000) {
    const end = Date.now() + maxMs;
    let quietSince = Date.now();
    while (Date.now() < end) {
      await this.page.waitForTimeout(200);
      if (this.pending.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
  }

  // open goes to url inside an action: it waits for the page's calls and
  // notes and closes the error dialogs they opened.
  async open(url) {
    await this.page.goto(url, {waitUntil: 'domcontentloaded'});
    await this.settle();
    await this.collectDialogs();
    await this.closeDialogs();
  }

  async collectDialogs() {
    await Promise.all([...this.consoleWork]);
    const step = this.current();
    for (const el of await this.page.locator('sm-alert-dialog').all()) {
      const text = (await el.innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
      if (!step.dialogs.includes(text)) step.dialogs.push(text);
    }
    for (const el of await this.page.locator('notifier-notification').all()) {
      const cls = (await el.getAttribute('class')) || '';
      const text = (await el.innerText().catch(() => '')).replace(/\s+/g, ' ').trim();
      if (!step.notifications.some(n => n.text === text)) step.notifications.push({error: cls.includes('error'), text});
    }
  }

  async closeDialogs() {
    for (let i = 0; i < 5 && await this.page.locator('sm-alert-dialog').count() > 0; i++) {
      await this.page.locator('sm-alert-dialog button').filter({hasText: /OK/i}).first().click({timeout: 2000})
        .catch(() => this.page.keyboard.press('Escape'));
      await this.page.waitForTimeout(400);
    }
  }

  failures() {
    return this.steps.reduce((n, s) => n + s.calls.filter(failed).length + s.dialogs.length + s.pageErrors.length + (incomplete(s) ? 1 : 0), 0);
  }

  summary(how, label = '') {
    const lines = ['# ClearML web app against Trove: recorded drive', '', ...(label ? [`App: ${label}.`] : []), `Logged in by: ${how}.`, ''];
    let total = 0, bad = 0, aborted = 0;
    for (const s of this.steps) {
      total += s.calls.length;
      bad += s.calls.filter(failed).length;
      aborted += s.calls.filter(abortedByBrowser).length;
    }
    const dialogs = this.steps.reduce((n, s) => n + s.dialogs.length, 0);
    const pageErrors = this.steps.reduce((n, s) => n + s.pageErrors.length, 0);
    const unfinished = this.steps.filter(incomplete).map(s => s.name);
    lines.push(`${this.steps.length} steps, ${total} API calls, ${bad} failed, ${aborted} cut short by the browser leaving the page, ` +
      `${dialogs} error dialogs, ${pageErrors} page errors, ${unfinished.length} actions not completed${unfinished.length ? ` (${unfinished.join(', ')})` : ''}.`, '');
    for (const s of this.steps) {
      const bad = s.calls.filter(failed);
      lines.push(`## ${s.name}`, '', `${s.calls.length} calls (${[...new Set(s.calls.map(c => c.op))].join(', ') || 'none'})`);
      if (s.note) lines.push(`Note: ${s.note}`);
      if (bad.length) {
        lines.push('', 'Failed calls:');
        for (const c of bad) lines.push(`- ${c.op}: ${c.status} ${c.error?.subcode ?? ''} ${c.error?.msg ?? ''}`.trimEnd());
      }
      if (s.dialogs.length) lines.push('', 'Error dialogs:', ...s.dialogs.map(d => `- ${d}`));
      if (s.pageErrors.length) lines.push('', 'Page errors:', ...[...new Set(s.pageErrors)].map(e => `- ${e.replace(/\s+/g, ' ').slice(0, 300)}`));
      if (s.appNoise.length) lines.push('', 'Page errors of the app itself (README.md; not counted):', ...[...new Set(s.appNoise)].map(e => `- ${e}`));
      const errNotes = s.notifications.filter(n => n.error);
      if (errNotes.length) lines.push('', 'Error notifications:', ...errNotes.map(n => `- ${n.text}`));
      if (s.console.length) lines.push('', 'Console errors:', ...[...new Set(s.console)].slice(0, 10).map(c => `- ${c.replace(/\s+/g, ' ').slice(0, 300)}`));
      lines.push('');
    }
    return lines.join('\n');
  }
}

// appNoise are uncaught page errors the app throws whatever the server
// answers (README.md says how each was shown to be the app's own); they are
// listed in the summary but do not fail the drive.
const appNoise = [
  {text: /You provided 'undefined' where a stream was expected/,
    why: "the Move To dialog's form subscribes to its project name control before the control exists (clearml-web 2.4+)"},
];

// abortedByBrowser: a call the browser dropped when the drive moved on
// to the next page; not an answer of the server.
export function abortedByBrowser(c) {
  return c.status === 0 && /ERR_ABORTED|No resource with given identifier|Target page, context or browser has been closed/.test(c.error?.msg || '');
}

// incomplete: a step whose action threw before it was done.
function incomplete(s) {
  return s.note.startsWith('action did not complete');
}

export function failed(c) {
  return c.status !== 200 && !abortedByBrowser(c);
}

// consoleText is the whole of a console error: each argument as the page
// would print it (objects as JSON, errors with their stack) and, for a
// resource that failed to load, its URL.
async function consoleText(msg) {
  const parts = [];
  for (const arg of msg.args()) {
    const v = await arg.evaluate(a => {
      if (a instanceof Error) return a.stack || String(a);
      if (a && typeof a === 'object') {
        try {
          return JSON.stringify(a, (k, x) => (x instanceof Error ? x.stack || String(x) : x)).slice(0, 1500);
        } catch {
          return String(a);
        }
      }
      return String(a);
    }).catch(() => null);
    if (v != null) parts.push(v);
  }
  const text = parts.length ? parts.join(' ') : msg.text();
  const url = msg.location()?.url;
  return (url && /Failed to load resource/.test(text) ? `${text} (${url})` : text).slice(0, 2000);
}

function parseBody(text) {
  if (text == null || text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
