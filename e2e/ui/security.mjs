// The security cases: stored data must never make an admin's browser act.
//
// seedAttacks stores, as the suite's guest (or, when the server refuses a
// guest's writes, as its plain user: guests are read-only), the payloads an
// attacker with an access key can report: debug sample URLs that are
// javascript:, data:, protocol-relative, /api/ paths of the web address
// (plain, climbing out of /files/, percent-encoded) and absolute URLs of the
// API port, all aimed at auth.edit_user (making the guest an admin) or
// tasks.delete (of a victim task); a plot whose layout image and annotation
// link point at tasks.delete; artifacts and a model whose URIs are
// "//host/x", javascript: and /api/; a script repository that is
// javascript:; and HTML and SVG files on the file server whose script would
// set a sentinel global.
//
// securityCases then opens every page as an admin and checks, on each:
// the sentinel stays unset; no request left for another origin (the API
// port, evil.example) and every /api/ call the page made is a POST of a
// read or of the few operations the UI makes on its own; no CSP violation
// (securitypolicyviolation events; console errors fail every case anyway);
// afterwards the admin's and the guest's roles are as they were and the
// victim task still exists.

import {apiClient, sessionToken} from './server.mjs';
import {apiOp} from './harness.mjs';
import {eventually, visible} from './expect.mjs';

export const SENTINEL = '__troveXSS';

// The operations the UI itself calls while these pages are only looked
// at: reads, by their names.
const READ = /^(get|get_.+|.+_get_.+|download_task_log|debug_images|next_debug_image_sample|.*histogram.*|.*_stats|stats|ping)$/;

// uploadFile stores a file on the file server as the SDK does: a
// multipart part named by its storage path.
async function uploadFile(server, keys, storagePath, type, body) {
  const form = new FormData();
  form.append(storagePath, new Blob([body], {type}), storagePath.split('/').pop());
  const r = await fetch(`${server.files}/`, {
    method: 'POST', body: form,
    headers: {Authorization: 'Basic ' + Buffer.from(`${keys.key}:${keys.secret}`).toString('base64')},
  });
  if (r.status !== 200) throw new Error(`upload ${storagePath}: HTTP ${r.status} ${(await r.text()).slice(0, 200)}`);
  return `${server.files}/${storagePath}`;
}

async function reportEvents(server, keys, events) {
  const r = await fetch(`${server.api}/events.add_batch`, {
    method: 'POST', body: events.map(e => JSON.stringify(e)).join('\n'),
    headers: {Authorization: 'Basic ' + Buffer.from(`${keys.key}:${keys.secret}`).toString('base64'), 'Content-Type': 'application/json-lines'},
  });
  const text = await r.text();
  if (r.status !== 200) throw Object.assign(new Error(`events.add_batch: HTTP ${r.status}: ${text.slice(0, 300)}`), {status: r.status});
}

// seedAttacks stores the payloads and returns what the cases need.
export async function seedAttacks(server, seeded) {
  const admin = apiClient(server);
  const victim = (await admin('tasks.create', {name: 'victim of stored URLs', project: seeded.project, type: 'training'})).id;

  // Write as the guest; a server where guests are read-only refuses (401
  // or 403 at any step), and the same payloads go in as the plain user.
  try {
    return {writer: 'guest', ...(await storePayloads(server, seeded, server.users.guest, victim))};
  } catch (err) {
    if (!/HTTP 40[13]/.test(String(err.message))) throw err;
    console.log(`ui e2e: the guest may not store the payloads (${String(err.message).split('\n')[0]}); storing them as the plain user`);
    return {writer: 'user', ...(await storePayloads(server, seeded, server.users.user, victim))};
  }
}

// storePayloads stores every payload with the key pair keys.
async function storePayloads(server, seeded, keys, victim) {
  const guestId = server.users.guest.id;
  const call = apiClient({api: server.api, ...keys});
  const task = (await call('tasks.create', {name: 'stored attacks', project: seeded.project, type: 'training'})).id;
  const storage = `UI E2E/Vision/stored attacks.${task}`;
  const html = await uploadFile(server, keys, `${storage}/artifacts/page/page.html`, 'text/html',
    `<!doctype html><script>window.${SENTINEL} = 'html'; fetch('/api/auth.edit_user', {method: 'POST', body: '{"user":"${guestId}","role":"admin"}'})</script>`);
  const svg = await uploadFile(server, keys, `${storage}/metrics/attack/svg/image.svg`, 'image/svg+xml',
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" onload="window.${SENTINEL}='svg'"><script>window.${SENTINEL} = 'svg'</script><rect width="64" height="64" fill="#1f6feb"/></svg>`);

  const promote = `auth.edit_user?user=${encodeURIComponent(guestId)}&role=admin`;
  const apiPort = new URL(server.api);
  const urls = {
    javascript: `javascript:window.${SENTINEL}='js'//x.png`,
    api_path: `/api/${promote}#.png`,
    api_climb: `/files/../api/${promote}#.png`,
    api_encoded: `/%61pi/${promote}#.png`,
    api_port: `http://${apiPort.host}/${promote}#.png`,
    api_port_localhost: `http://localhost:${apiPort.port}/tasks.delete?task=${victim}#.png`,
    protocol_relative: '//evil.example/x.png',
    backslash: '/\\evil.example/x.png',
    data_html: `data:text/html,<script>window.${SENTINEL}='data'</script>#.png`,
    external: 'https://evil.example/x.png',
    svg_on_file_server: svg,
    html_on_file_server: html,
  };
  const ts = Date.now();
  const images = Object.entries(urls).map(([variant, url]) => ({
    type: 'training_debug_image', task, metric: 'attack', variant, iter: 0, timestamp: ts, url,
  }));
  const link = `<a href="/api/tasks.delete?task=${victim}&force=true">click me</a>`;
  const figure = {
    data: [{type: 'scatter', x: [0, 1, 2], y: [1, 3, 2], name: `series ${link}`, text: [link, 'b', 'c'], mode: 'lines+markers+text'}],
    layout: {
      title: {text: `attack plot ${link}`},
      images: [
        {source: `/api/tasks.delete?task=${victim}`, xref: 'paper', yref: 'paper', x: 0, y: 1, sizex: 0.2, sizey: 0.2},
        {source: `http://${apiPort.host}/${promote}`, xref: 'paper', yref: 'paper', x: 0.5, y: 1, sizex: 0.2, sizey: 0.2},
        {source: svg, xref: 'paper', yref: 'paper', x: 0.8, y: 1, sizex: 0.2, sizey: 0.2},
      ],
      annotations: [{text: link, x: 1, y: 3, showarrow: true}, {text: '<a href="javascript:window.__troveXSS=1">js</a>', x: 2, y: 2}],
    },
  };
  const plot = {type: 'plot', task, metric: 'attack plot', variant: 'figure', iter: 0, timestamp: ts, plot_str: JSON.stringify(figure)};
  await reportEvents(server, keys, [...images, plot]);

  await call('tasks.edit', {task, script: {repository: `javascript:window.${SENTINEL}='repo'`, entry_point: 'x.py', branch: '<a href="/api/x">b</a>'}});
  await call('tasks.add_or_update_artifacts', {task, artifacts: [
    {key: 'protocol relative', type: 'custom', mode: 'output', uri: '//evil.example/x'},
    {key: 'javascript', type: 'custom', mode: 'output', uri: `javascript:window.${SENTINEL}='artifact'`},
    {key: 'api path', type: 'custom', mode: 'output', uri: `/api/tasks.delete?task=${victim}`},
    {key: 'api port', type: 'custom', mode: 'output', uri: `http://${apiPort.host}/${promote}`},
    {key: 'data', type: 'custom', mode: 'output', uri: `data:text/html,<script>window.${SENTINEL}='data'</script>`},
    {key: 'html page', type: 'custom', mode: 'output', uri: html},
    {key: 'other host', type: 'custom', mode: 'output', uri: 'https://evil.example/a.bin'},
  ]});
  const model = (await call('models.create', {name: 'stored attack model', uri: '//evil.example/model.pt', project: seeded.project, task})).id;
  const model2 = (await call('models.create', {name: 'stored attack model js', uri: `javascript:window.${SENTINEL}='model'`, project: seeded.project, task})).id;
  const model3 = (await call('models.create', {name: 'stored attack model elsewhere', uri: 'https://evil.example/model.pt', project: seeded.project, task})).id;
  return {task, victim, model, model2, model3, urls, guestId};
}

// roles reads the admin's and the guest's roles through the API.
async function roles(server) {
  const call = apiClient(server);
  const me = (await call('users.get_current_user')).user;
  const guest = (await call('users.get_by_id', {user: server.users.guest.id})).user;
  return {admin: me.role, guest: guest.role};
}

// guard records what a page does; check() fails on anything it must not.
async function guard(t) {
  const {page, server} = t;
  const web = new URL(server.web).origin;
  const problems = [];
  const calls = new Set();
  page.on('request', req => {
    const url = req.url();
    if (/^(data|blob|about):/.test(url)) return;
    let u;
    try { u = new URL(url); } catch { problems.push(`a request to a bad URL: ${url}`); return; }
    if (u.origin !== web) { problems.push(`a request left for another origin: ${req.method()} ${url}`); return; }
    if (decodeURIComponent(u.pathname).toLowerCase().startsWith('/api/')) {
      const op = apiOp(url);
      calls.add(op || u.pathname);
      const method = op.split('.')[1] || '';
      if (req.method() !== 'POST' || !op || !READ.test(method)) problems.push(`an acting API request: ${req.method()} ${u.pathname}${u.search}`);
    }
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', e => {
      window.__cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  await t.context.addCookies([{name: 'clearml_token_basic', value: await sessionToken(server), url: server.web, httpOnly: true, sameSite: 'Lax'}]);
  const before = await roles(server);

  // afterEach is run after each page is looked at.
  const afterPage = async what => {
    const state = await page.evaluate(s => ({sentinel: window[s], csp: window.__cspViolations || []}), SENTINEL);
    if (state.sentinel !== undefined) problems.push(`${what}: the sentinel was set (${state.sentinel})`);
    for (const v of state.csp) problems.push(`${what}: CSP violation: ${v}`);
  };
  const check = async () => {
    const after = await roles(server);
    if (after.admin !== before.admin || after.guest !== before.guest) {
      problems.push(`roles changed: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
    }
    if (after.guest !== 'guest') problems.push(`the guest's role is ${after.guest}`);
    const victim = await apiClient(server)('tasks.get_all', {id: [t.seeded.attacks.victim], only_fields: ['id']});
    if ((victim.tasks || []).length !== 1) problems.push('the victim task is gone');
    if (problems.length) throw new Error(`stored data acted:\n${problems.map(p => '  - ' + p).join('\n')}\n(API calls seen: ${[...calls].sort().join(', ')})`);
    if (!calls.size) throw new Error('the pages made no API call: nothing was looked at');
  };
  return {afterPage, check};
}

// open navigates to path, waits for the page's main content and for
// in-flight work to settle, then lets afterPage look.
async function open(t, g, path, ready) {
  await t.page.goto(t.server.web + path);
  await visible(t.page.locator(ready), `${path}: ${ready}`);
  await t.page.waitForLoadState('networkidle');
  await g.afterPage(path);
}

// sec is one security case: its pages, then the checks of guard, which
// run (and report) even when the pages' own assertions failed.
const sec = (name, run) => ({name: `security: ${name}`, fresh: true, run: async t => {
  const g = await guard(t);
  const errors = [];
  try { await run(t, g); } catch (err) { errors.push(err); }
  try { await g.check(); } catch (err) { errors.push(err); }
  if (errors.length) throw new Error(errors.map(e => String(e.message || e)).join('\n'));
}});

export function securityCases(seeded) {
  const a = seeded.attacks;
  const P = encodeURIComponent(seeded.project);
  const xp = `/projects/${P}/experiments/${a.task}`;
  return [
    sec('stored URLs on the debug samples, as thumbnails and in the full view', async (t, g) => {
      const {page} = t;
      await open(t, g, `${xp}/output/debugImages`, '.image-group[data-metric=attack]');
      const group = page.locator('.image-group[data-metric=attack]');
      // The SVG on the file server is shown, loaded through /files/ (its
      // script does not run in an <img>); every other sample is text.
      await eventually(async () => {
        const imgs = await group.locator('img[data-testid=debug-image]').evaluateAll(els => els.map(e => ({src: e.getAttribute('src'), w: e.complete ? e.naturalWidth : 0})));
        return {ok: imgs.length === 1 && imgs[0].src.startsWith('/files/') && imgs[0].w > 0, found: JSON.stringify(imgs)};
      }, 'only the file server SVG is an image, loaded from /files/');
      const thumbs = group.locator('button.thumb');
      const n = await thumbs.count();
      if (n !== Object.keys(a.urls).length) throw new Error(`${n} thumbnails, want ${Object.keys(a.urls).length}`);
      for (let i = 0; i < n; i++) {
        await thumbs.nth(i).click();
        const viewer = page.locator('[data-testid=image-viewer]');
        await visible(viewer, 'the full view');
        const title = await viewer.locator('.lightbox-title').innerText();
        const variant = title.split(' · ')[1];
        const want = {
          svg_on_file_server: 'img', html_on_file_server: 'a.btn',
          external: '[data-testid=external-url]', protocol_relative: '[data-testid=blocked-url]',
        }[variant] || '[data-testid=blocked-url]';
        await visible(viewer.locator(`.lightbox-stage ${want}`), `the full view of ${variant} shows ${want}`);
        // Links in the full view go to /files/ only, and download (an HTML
        // or SVG file opened as a page would run in this origin).
        const links = await viewer.locator('a[href]').evaluateAll(els => els.map(e => ({href: e.getAttribute('href'), download: e.hasAttribute('download')})));
        for (const l of links) if (!l.href.startsWith('/files/') || !l.download) throw new Error(`${variant}: the full view links ${JSON.stringify(l)}`);
        await t.shot(`full view ${variant}`);
        if (variant === 'external') {
          // Open asks first; cancelled, nothing is opened or fetched.
          const pages = t.context.pages().length;
          await viewer.locator('[data-action=open-external]').click();
          const ask = page.locator('.modal[aria-label="Open a link to another site?"]');
          await visible(ask, 'the warning before opening another host');
          await t.shot('open another host asks first');
          await ask.locator('button', {hasText: 'Cancel'}).click();
          if (t.context.pages().length !== pages) throw new Error('a page was opened after Cancel');
        }
        await page.keyboard.press('Escape');
        await page.waitForLoadState('networkidle');
        await g.afterPage(`debug sample ${variant}`);
      }
    }),
    sec('a plot with an API image and API links', async (t, g) => {
      const {page} = t;
      await open(t, g, `${xp}/output/metrics/plots`, '[data-testid=plot][data-title="attack plot"]');
      const plot = page.locator('[data-testid=plot][data-title="attack plot"]');
      await visible(plot.locator('svg.main-svg'), 'the plot drawn by plotly.js', 30000);
      await visible(plot.locator('text', {hasText: 'click me'}), 'the annotation text, kept without its link');
      await page.waitForLoadState('networkidle');
      // plotly adds the <image> first and sets its href once the picture has loaded and been
      // redrawn as a data: PNG, so wait for every image to carry one before reading them.
      await plot.evaluate(el => new Promise((resolve, reject) => {
        const started = Date.now();
        const check = () => {
          const imgs = [...el.querySelectorAll('image')];
          if (imgs.length && imgs.every(x => x.getAttribute('href') || x.getAttribute('xlink:href'))) return resolve();
          if (Date.now() - started > 15000) return reject(new Error('the plot image never got its href'));
          setTimeout(check, 100);
        };
        check();
      }));
      const found = await plot.evaluate(el => ({
        // (plotly's mode bar buttons are <a> elements without a link)
        links: [...el.querySelectorAll('a')].map(x => x.getAttribute('href') || x.getAttribute('xlink:href')).filter(h => h !== null),
        images: [...el.querySelectorAll('image')].map(x => x.getAttribute('href') || x.getAttribute('xlink:href')),
      }));
      if (found.links.length) throw new Error(`the plot has links: ${JSON.stringify(found.links)}`);
      // plotly draws a layout image it loaded (from /files/) as a data: PNG.
      if (found.images.length !== 1 || !/^(\/files\/|data:image\/png;base64,)/.test(found.images[0])) {
        throw new Error(`the plot's images: ${JSON.stringify(found.images).slice(0, 300)}, want only the file server's`);
      }
      await g.afterPage('plots');
    }),
    sec('artifacts, models, execution and the other tabs of the experiment', async (t, g) => {
      const {page} = t;
      await open(t, g, `${xp}/artifacts`, '[data-testid=artifacts]');
      const links = await page.locator('[data-testid=artifacts] a[href]').evaluateAll(els => els.map(e => ({href: e.getAttribute('href'), download: e.hasAttribute('download')})));
      for (const l of links) if (!l.href.startsWith('/files/') || !l.download) throw new Error(`an artifact links ${JSON.stringify(l)}`);
      const hrefs = links.map(l => l.href);
      if (!hrefs.some(h => h.endsWith('page.html'))) throw new Error(`the file server's artifact is not linked: ${JSON.stringify(hrefs)}`);
      await visible(page.locator('[data-testid=artifact][data-name="other host"] [data-testid=external-url]'), 'another host shown as text with Open');
      await t.shot('artifacts');
      for (const path of ['info', 'execution', 'hyper-params', 'models', 'output/log', 'output/metrics/scalar']) {
        await open(t, g, `${xp}/${path}`, 'main');
        const bad = await page.locator('main a[href]').evaluateAll(els => els.map(e => e.getAttribute('href')).filter(h => !/^(\/(?!\/)|#)/.test(h) || /^\/api\//i.test(h)));
        if (bad.length) throw new Error(`${path}: links ${JSON.stringify(bad)}`);
      }
    }),
    sec('projects, experiments, compare, models, queues, workers and settings', async (t, g) => {
      const {page} = t;
      await open(t, g, '/projects', 'main');
      await open(t, g, `/projects/${P}/experiments`, 'main');
      await open(t, g, '/experiments', 'main');
      await open(t, g, `/compare?ids=${a.task},${seeded.tasks.resnet.task_id}`, '[data-testid=compare-plots]');
      await page.locator('[data-testid=compare-debug]').scrollIntoViewIfNeeded();
      await page.locator('[data-testid=compare-plots]').scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      await g.afterPage('compare, scrolled');
      await open(t, g, '/models', 'main');
      for (const [id, shown] of [[a.model, 'blocked-url'], [a.model2, 'blocked-url'], [a.model3, 'external-url']]) {
        await open(t, g, `/projects/${P}/models/${id}`, '[data-testid=model-uri]');
        await visible(page.locator(`[data-testid=${shown}]`), `model ${id}'s URI shown as ${shown}`);
        if (await page.locator('[data-testid=model-download]').count()) throw new Error(`model ${id} has a download link`);
      }
      for (const p of ['/queues', '/workers', '/settings']) await open(t, g, p, 'main');
    }),
  ];
}
