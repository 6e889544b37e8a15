// The UI cases, written against the data-testid contract of issue 14
// (the list is in e2e/ui/README.md): the SDK's links, login and session
// ends, projects, the experiments table (sort, columns, filter), compare,
// live updates, abort, queue reordering and unknown ids.

import {addEvents, apiClient, sessionToken} from './server.mjs';
import {PAGED_METRIC, TRACE_INPUT, queueOrder, taskStatus} from './seed.mjs';
import {attribute, containsText, eventually, sameList, visible, waitPath} from './expect.mjs';
import {chartData, dragZoom, fracOf, spikeDrawn} from './zoom.mjs';

// What each experiment link of the SDK opens: the path after the task id,
// its tab, and what the page must show.
const experimentLinks = [
  {suffix: 'output/log', tab: 'log', check: checkConsole},
  {suffix: 'output/metrics/scalar', tab: 'scalars', check: checkScalars},
  {suffix: 'output/metrics/plots', tab: 'plots', check: checkPlots},
  {suffix: 'output/debugImages', tab: 'debug', check: checkDebugImages},
  {suffix: 'execution', tab: 'execution', check: checkExecution},
  {suffix: 'hyper-params', tab: 'hyper-params', check: checkHyperParams},
  {suffix: 'artifacts', tab: 'artifacts', check: checkArtifacts},
  {suffix: 'info', tab: 'info', check: checkInfo},
];

async function checkConsole({page, seeded}) {
  await visible(page.locator('[data-testid=console]'), 'the console');
  for (const line of seeded.expect.console) {
    await visible(page.locator('[data-testid=console-line]', {hasText: line}), `console line "${line}"`);
  }
}

async function checkScalars({page, seeded}) {
  for (const m of seeded.expect.metrics) {
    await visible(page.locator(`[data-testid=scalar-chart][data-metric="${m}"] canvas`), `the chart of metric "${m}"`);
  }
}

async function checkPlots({page, seeded}) {
  const plot = page.locator(`[data-testid=plot][data-title*="${seeded.expect.plot_title}"]`);
  await visible(plot, `the plot titled "${seeded.expect.plot_title}"`);
  // plotly.js drew it (it loads lazily on this page only).
  await visible(plot.locator('svg.main-svg'), 'the plot drawn by plotly.js', 30000);
}

async function checkDebugImages({page}) {
  const images = page.locator('[data-testid=debug-image]');
  await visible(images, 'a debug image');
  // Both reported iterations, each image loaded from the file server.
  await eventually(async () => {
    const sizes = await images.evaluateAll(els => els.map(el => {
      const img = el.tagName === 'IMG' ? el : el.querySelector('img');
      return img && img.complete ? img.naturalWidth : 0;
    }));
    return {ok: sizes.length >= 2 && sizes.every(w => w > 0), found: `images of widths ${JSON.stringify(sizes)}`};
  }, 'two loaded debug images');
}

async function checkExecution({page, seeded}) {
  await containsText(page.locator('main'), [seeded.expect.script], 'the execution tab names the script');
}

async function checkHyperParams({page, task}) {
  await containsText(page.locator('[data-testid=hyper-params]'), ['lr', String(task.params.lr), 'label', task.params.label],
    'the hyper-parameters');
}

async function checkArtifacts({page, seeded}) {
  for (const name of seeded.expect.artifacts) {
    await visible(page.locator(`[data-testid=artifact][data-name="${name}"]`), `artifact "${name}"`);
  }
}

async function checkInfo({page, server, task}) {
  const status = await taskStatus(server, task.task_id);
  await attribute(page.locator('[data-status]'), 'data-status', status, 'the status in the header');
  await containsText(page.locator('main'), [task.task_id], 'the info tab shows the task id');
}

function experimentLinkCases(seeded) {
  const cases = [];
  const {resnet} = seeded.tasks;
  cases.push({
    name: 'SDK link as printed (console)',
    run: async t => {
      if (!resnet.sdk_link) throw new Error('the SDK printed no "ClearML results page" link');
      const u = new URL(resnet.sdk_link);
      if (u.origin !== t.server.web) throw new Error(`the SDK link ${resnet.sdk_link} is not on the web address ${t.server.web}`);
      await t.page.goto(resnet.sdk_link);
      await containsText(t.page.locator('[data-testid=task-name]'), [resnet.name], 'the task name');
      await checkConsole({...t, task: resnet});
    },
  });
  for (const form of ['experiments', 'tasks']) {
    for (const link of experimentLinks) {
      const p = `/projects/${resnet.project_id}/${form}/${resnet.task_id}/${link.suffix}`;
      cases.push({
        name: `link /projects/P/${form}/T/${link.suffix}`,
        run: async t => {
          await t.page.goto(t.server.web + p);
          await containsText(t.page.locator('[data-testid=task-name]'), [resnet.name], 'the task name');
          await visible(t.page.locator(`a[data-tab="${link.tab}"]`), `the ${link.tab} tab link`);
          await link.check({...t, task: resnet});
        },
      });
    }
  }
  return cases;
}

// rowIDs lists the task ids of the experiments table, top first.
async function rowIDs(page) {
  return page.locator('table[data-testid=experiments] tr[data-task-id]').evaluateAll(rows => rows.map(r => r.dataset.taskId));
}

async function names(server, ids) {
  const tasks = (await apiClient(server)('tasks.get_all', {id: ids, only_fields: ['id', 'name']})).tasks;
  const byID = Object.fromEntries(tasks.map(x => [x.id, x.name]));
  return ids.map(id => byID[id]);
}

function projectCases(seeded) {
  const {resnet, vgg} = seeded.tasks;
  return [
    {
      name: 'link /projects (tree and search)',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects`);
        await visible(t.page.locator(`[data-project-id="${seeded.root}"]`), 'the "UI E2E" project');
        await t.page.locator('input[data-testid=project-search]').fill('Vision');
        await visible(t.page.locator(`[data-project-id="${seeded.project}"]`), 'the "UI E2E/Vision" project found by search');
        await t.page.locator(`[data-project-id="${seeded.project}"]`).first().click();
        await waitPath(t.page, u => u.pathname.startsWith(`/projects/${seeded.project}`), 'the project link opens its experiments');
        await visible(t.page.locator(`tr[data-task-id="${resnet.task_id}"]`), 'the experiment "train resnet" in the table');
      },
    },
    {
      name: 'link /projects/P/experiments (table)',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments`);
        for (const id of [resnet.task_id, vgg.task_id, seeded.running, ...seeded.queued]) {
          await visible(t.page.locator(`table[data-testid=experiments] tr[data-task-id="${id}"]`), `the row of task ${id}`);
        }
        await attribute(t.page.locator(`tr[data-task-id="${seeded.running}"] [data-status]`), 'data-status', 'in_progress',
          'the running task\'s status badge');
      },
    },
    {
      name: 'table: sort by name, both ways',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments`);
        await visible(t.page.locator(`tr[data-task-id="${vgg.task_id}"]`), 'the table');
        const th = t.page.locator('table[data-testid=experiments] th[data-col=name]');
        await visible(th, 'the name column header');
        let previous = null;
        for (let click = 0; click < 2; click++) {
          await th.first().click();
          const dir = await eventually(async () => {
            const d = await th.first().getAttribute('aria-sort');
            return {ok: (d === 'ascending' || d === 'descending') && d !== previous, found: `aria-sort=${d}`, dir: d};
          }, `aria-sort on the name header after click ${click + 1}`).then(r => r.dir);
          previous = dir;
          await eventually(async () => {
            const shown = await names(t.server, await rowIDs(t.page));
            const want = [...shown].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
            if (dir === 'descending') want.reverse();
            return {ok: shown.length >= 6 && sameList(shown, want), found: `rows ${JSON.stringify(shown)} (${dir})`};
          }, `rows sorted by name, ${dir}`);
        }
      },
    },
    {
      name: 'table: choose a hyper-parameter and a metric column, sort by each',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments`);
        await visible(t.page.locator(`tr[data-task-id="${vgg.task_id}"]`), 'the table');
        for (const [key, value] of [['hyperparams.General.lr', resnet.params.lr], ['metric.loss.train', null]]) {
          await t.page.locator('button[data-testid=columns]').first().click();
          const choice = t.page.locator(`input[data-col-choice="${key}"]`);
          await visible(choice, `the column chooser's ${key}`);
          await choice.first().check();
          await t.page.keyboard.press('Escape');
          const th = t.page.locator(`table[data-testid=experiments] th[data-col="${key}"]`);
          await visible(th, `the ${key} column`);
          if (value !== null) {
            await containsText(t.page.locator(`tr[data-task-id="${resnet.task_id}"] td[data-col="${key}"]`), [String(value)], `resnet's ${key}`);
          }
          // resnet has the larger lr and the larger last train loss.
          let previous = null;
          for (let click = 0; click < 2; click++) {
            await th.first().click();
            await eventually(async () => {
              const dir = await th.first().getAttribute('aria-sort');
              const ids = await rowIDs(t.page);
              const [r, v] = [ids.indexOf(resnet.task_id), ids.indexOf(vgg.task_id)];
              const ok = (dir === 'ascending' || dir === 'descending') && dir !== previous && r >= 0 && v >= 0 &&
                (dir === 'ascending' ? v < r : r < v);
              if (ok) previous = dir;
              return {ok, found: `aria-sort=${dir}, rows ${JSON.stringify(await names(t.server, ids))}`};
            }, `rows sorted by ${key} (click ${click + 1})`);
          }
        }
      },
    },
    {
      name: 'table: filter by search',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments`);
        await visible(t.page.locator(`tr[data-task-id="${vgg.task_id}"]`), 'the table');
        const search = t.page.locator('input[data-testid=filter-search]');
        await visible(search, 'the search input');
        await search.first().fill('vgg');
        await eventually(async () => {
          const ids = await rowIDs(t.page);
          return {ok: sameList(ids, [vgg.task_id]), found: `rows ${JSON.stringify(await names(t.server, ids))}`};
        }, 'only "train vgg" left');
        await search.first().fill('');
        await eventually(async () => {
          const ids = await rowIDs(t.page);
          return {ok: ids.length >= 6, found: `${ids.length} rows`};
        }, 'every row back once the search is cleared');
      },
    },
    {
      name: 'link /projects/P/models/M (model page)',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/models/${resnet.model_id}`);
        await containsText(t.page.locator('[data-testid=model-name]'), [seeded.expect.model_name], 'the model name');
      },
    },
    {
      name: 'compare two experiments',
      run: async t => {
        await t.page.goto(`${t.server.web}/compare?ids=${resnet.task_id},${vgg.task_id}`);
        for (const m of seeded.expect.metrics) {
          await visible(t.page.locator(`[data-testid=compare-scalars] [data-testid=scalar-chart][data-metric="${m}"] canvas`),
            `the overlaid chart of "${m}"`);
        }
        await containsText(t.page.locator('[data-testid=compare-params]'), ['lr', String(resnet.params.lr), String(vgg.params.lr)],
          'both lr values in the parameter diff');
        await visible(t.page.locator('[data-testid=parallel-coords]'), 'the parallel-coordinates chart');
      },
    },
  ];
}

function actionCases(seeded) {
  return [
    {
      name: 'a running task\'s console and scalars update live',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${seeded.running}/output/log`);
        await visible(t.page.locator('[data-testid=console]'), 'the console of the running task');
        // Reported after the page opened, as a running script would.
        const line = `live line reported at ${Date.now()}`;
        await addEvents(t.server, [{type: 'log', task: seeded.running, msg: line, level: 'info', timestamp: Date.now(), iter: 0}]);
        await visible(t.page.locator('[data-testid=console-line]', {hasText: line}), 'the new console line, without a reload', 30000);
        await t.page.locator('a[data-tab=scalars]').first().click();
        await t.page.waitForTimeout(1500); // the tab's own first read: the task has no scalars yet
        await addEvents(t.server, [0, 1, 2].map(iter => ({type: 'training_stats_scalar', task: seeded.running, metric: 'live',
          variant: 'v', iter, value: iter / 2, timestamp: Date.now()})));
        await visible(t.page.locator('[data-testid=scalar-chart][data-metric="live"] canvas'), 'the new metric\'s chart', 30000);
      },
    },
    {
      name: 'abort a running task',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${seeded.running}/info`);
        await attribute(t.page.locator('[data-status]'), 'data-status', 'in_progress', 'the running status in the header');
        await t.shot('before');
        await visible(t.page.locator('button[data-action=abort]'), 'the abort button');
        await t.page.locator('button[data-action=abort]').first().click();
        await visible(t.page.locator('[data-testid=confirm]'), 'the confirmation dialog');
        await t.page.locator('[data-testid=confirm]').click();
        await eventually(async () => {
          const s = await taskStatus(t.server, seeded.running);
          return {ok: s === 'stopped', found: `status ${s} on the server`};
        }, 'the server stopped the task');
        await attribute(t.page.locator('[data-status]'), 'data-status', 'stopped', 'the new status in the header');
      },
    },
    {
      name: 'reorder a queue by drag and by buttons',
      run: async t => {
        const [first, second, third] = seeded.queued;
        await t.page.goto(`${t.server.web}/queues`);
        const queue = t.page.locator(`[data-testid=queue][data-queue-id="${seeded.queue}"]`);
        await visible(queue, 'the queue');
        const entries = queue.locator('[data-testid=queue-entry]');
        const shown = () => entries.evaluateAll(els => els.map(e => e.dataset.taskId));
        await eventually(async () => ({ok: sameList(await shown(), seeded.queued), found: await shown()}), 'the three entries in order');
        // Drag the third entry onto the top edge of the first.
        await entries.nth(2).dragTo(entries.nth(0), {targetPosition: {x: 12, y: 2}});
        const want = [third, first, second];
        await eventually(async () => {
          const got = await queueOrder(t.server, seeded.queue);
          return {ok: sameList(got, want), found: `server order ${JSON.stringify(got)}`};
        }, 'the server order after the drag');
        await eventually(async () => ({ok: sameList(await shown(), want), found: await shown()}), 'the shown order after the drag');
        await queue.locator(`[data-testid=queue-entry][data-task-id="${third}"] button[data-action=move-down]`).click();
        const want2 = [first, third, second];
        await eventually(async () => {
          const got = await queueOrder(t.server, seeded.queue);
          return {ok: sameList(got, want2), found: `server order ${JSON.stringify(got)}`};
        }, 'the server order after move-down');
        await eventually(async () => ({ok: sameList(await shown(), want2), found: await shown()}), 'the shown order after move-down');
      },
    },
  ];
}

// The lookups of an unknown id answer 4xx; the page must show not-found.
const allowClientErrorsOfAPI = info => info.op !== '' && info.status >= 400 && info.status < 500;
// Logged out, the session probe answers 401: the one expected failure.
const allowSessionProbe = info => info.op === 'users.get_current_user' && info.status === 401;

function badStateCases(seeded) {
  const missing = '0123456789abcdef0123456789abcdef';
  return [
    {
      name: 'unknown experiment id shows not-found',
      allow: allowClientErrorsOfAPI,
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${missing}/output/log`);
        await visible(t.page.locator('[data-testid=not-found]'), 'the not-found page');
      },
    },
    {
      name: 'traces tab: the project traces, a trace span tree, inputs shown as text',
      run: async t => {
        const {project, id} = seeded.traces;
        await t.page.goto(`${t.server.web}/projects/${project}/experiments`);
        await t.page.locator('[data-testid=tab-traces]').click();
        await waitPath(t.page, u => u.pathname === `/projects/${project}/traces`, 'the traces tab');
        const row = t.page.locator(`[data-testid=traces-table] tr[data-trace-id="${id}"]`);
        await visible(row, 'the seeded trace in the table');
        await containsText(row, ['answer', 'team=nlp', '300 ms', 'OK'], 'the trace name, tag, duration and state');
        await row.locator('a').click();
        await waitPath(t.page, u => u.pathname === `/projects/${project}/traces/${id}`, 'the trace view');
        await visible(t.page.locator('[data-testid=span-tree] li[data-span-name=answer]'), 'the root span');
        await t.page.locator('[data-testid=span-tree] li[data-span-name=retrieve]').click();
        await containsText(t.page.locator('[data-testid=span-inputs]'), [TRACE_INPUT.split('"')[0]], 'the span input, as text');
        await containsText(t.page.locator('[data-testid=span-outputs]'), ['doc-1'], 'the span output');
        const ran = await t.page.evaluate(() => window.__traceXSS === 1 || !!document.querySelector('[data-testid=span-detail] img'));
        if (ran) throw new Error('the span input was rendered as markup');
      },
    },
    {
      name: 'unknown model id shows not-found',
      allow: allowClientErrorsOfAPI,
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/models/${missing}`);
        await visible(t.page.locator('[data-testid=not-found]'), 'the not-found page');
      },
    },
    {
      name: 'unknown page shows not-found',
      run: async t => {
        await t.page.goto(`${t.server.web}/no/such/page`);
        await visible(t.page.locator('[data-testid=not-found]'), 'the not-found page');
      },
    },
    {
      name: 'login through the login page (no session: to login, back to the link)',
      fresh: true,
      allow: allowSessionProbe,
      run: async t => {
        const target = `/projects/${seeded.project}/experiments`;
        await t.page.goto(t.server.web + target);
        await waitPath(t.page, u => u.pathname === '/login' && u.searchParams.get('next') === target, 'the login page, remembering the link');
        await t.shot('login');
        await t.page.locator('input[name=user]').fill(t.server.key);
        await t.page.locator('input[name=secret]').fill(t.server.secret);
        await t.page.locator('button[type=submit]').click();
        await waitPath(t.page, u => u.pathname === target, 'back at the link after logging in');
        await visible(t.page.locator(`tr[data-task-id="${seeded.tasks.resnet.task_id}"]`), 'the table after logging in');
        const cookies = await t.context.cookies(t.server.web);
        if (!cookies.some(c => c.name === 'clearml_token_basic' && c.httpOnly)) {
          throw new Error(`no HttpOnly clearml_token_basic cookie after login: ${JSON.stringify(cookies.map(c => c.name))}`);
        }
      },
    },
    {
      name: 'expired or forged session cookie goes to the login page',
      fresh: true,
      allow: allowSessionProbe,
      run: async t => {
        const token = await sessionToken(t.server, 1);
        await new Promise(r => setTimeout(r, 2100));
        for (const value of [token, 'forged.session.token']) {
          await t.context.addCookies([{name: 'clearml_token_basic', value, url: t.server.web}]);
          await t.page.goto(`${t.server.web}/projects`);
          await waitPath(t.page, u => u.pathname === '/login', `the login page (${value === token ? 'expired' : 'forged'} cookie)`);
          await visible(t.page.locator('input[name=user]'), 'the login form');
        }
      },
    },
    {
      name: 'session ending mid-use goes to the login page; logout too',
      fresh: true,
      // The page's first call after the session went answers 401.
      allow: info => info.op !== '' && info.status === 401,
      run: async t => {
        await t.page.goto(`${t.server.web}/login`);
        await t.page.locator('input[name=user]').fill(t.server.key);
        await t.page.locator('input[name=secret]').fill(t.server.secret);
        await t.page.locator('button[type=submit]').click();
        await waitPath(t.page, u => u.pathname === '/projects', 'the projects page after logging in');
        await visible(t.page.locator(`[data-project-id="${seeded.root}"]`), 'the projects');
        await t.context.clearCookies();
        await t.page.locator('a[data-nav=models]').click();
        await waitPath(t.page, u => u.pathname === '/login', 'the login page once the session is gone');
        await t.page.locator('input[name=user]').fill(t.server.key);
        await t.page.locator('input[name=secret]').fill(t.server.secret);
        await t.page.locator('button[type=submit]').click();
        await waitPath(t.page, u => u.pathname === '/models', 'back on the models page');
        await t.page.locator('[data-testid=logout]').click();
        await waitPath(t.page, u => u.pathname === '/login', 'the login page after logging out');
        await t.page.goto(`${t.server.web}/projects`);
        await waitPath(t.page, u => u.pathname === '/login', 'still logged out after reloading');
      },
    },
  ];
}

// A fresh context logged in with a new session (so what a case keeps in
// localStorage, such as chosen columns, stays out of the other cases).
async function logIn(t) {
  await t.context.addCookies([{name: 'clearml_token_basic', value: await sessionToken(t.server), url: t.server.web,
    httpOnly: true, sameSite: 'Lax'}]);
}

// shownIters lists the iterations a debug-image group shows, top first.
function shownIters(group) {
  return group.locator('.image-iteration').evaluateAll(els => els.map(e => Number(e.dataset.iter)));
}

// loadedImages checks every debug image in scope has loaded.
async function loadedImages(scope, min, what) {
  const images = scope.locator('img[data-testid=debug-image]');
  await eventually(async () => {
    const sizes = await images.evaluateAll(els => els.map(el => (el.complete ? el.naturalWidth : 0)));
    return {ok: sizes.length >= min && sizes.every(w => w > 0), found: `images of widths ${JSON.stringify(sizes)}`};
  }, what);
}

// The first hour of a new user: the root address, a project opened by
// clicking, compare reached from the table, debug samples paged, the plots
// grid and a wide table.
function firstHourCases(seeded) {
  const {resnet, vgg} = seeded.tasks;
  const rootVisible = async page => {
    await visible(page.locator(`[data-project-id="${seeded.root}"]`), 'the "UI E2E" project on the projects page');
    const text = await page.locator('#app').innerText();
    if (text.trim().length < 20) throw new Error(`the page is nearly blank: ${JSON.stringify(text)}`);
  };
  const pagedGroup = page => page.locator(`.image-group[data-metric="${PAGED_METRIC}"]`);
  // settled waits for the group to show want and to know whether there is
  // anything older.
  const settled = async (group, want, what) => eventually(async () => {
    const got = await shownIters(group);
    const older = await group.getAttribute('data-older');
    return {ok: sameList(got, want) && older !== 'looking', found: `iterations ${JSON.stringify(got)}, older: ${older}`, older};
  }, what);
  const button = (group, action) => group.locator(`button[data-action="${action}"]`);
  const expectDisabled = async (group, action, disabled, what) => {
    const is = await button(group, action).isDisabled();
    if (is !== disabled) throw new Error(`${what}: the ${action} button is ${is ? 'disabled' : 'enabled'}`);
  };
  return [
    {
      name: 'open / logged in: the projects page',
      run: async t => {
        await t.page.goto(`${t.server.web}/`);
        await waitPath(t.page, u => u.pathname === '/projects', 'the root address moves to /projects');
        await rootVisible(t.page);
      },
    },
    {
      name: 'open / logged out: the login page, then the projects',
      fresh: true,
      allow: allowSessionProbe,
      run: async t => {
        await t.page.goto(`${t.server.web}/`);
        await waitPath(t.page, u => u.pathname === '/login', 'the login page');
        await visible(t.page.locator('input[name=user]'), 'the login form');
        await t.shot('login');
        await t.page.locator('input[name=user]').fill(t.server.key);
        await t.page.locator('input[name=secret]').fill(t.server.secret);
        await t.page.locator('button[type=submit]').click();
        await waitPath(t.page, u => u.pathname === '/projects', 'the projects page after logging in');
        await rootVisible(t.page);
      },
    },
    {
      name: 'open a project from the projects page by clicking',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects`);
        await rootVisible(t.page);
        const vision = t.page.locator(`a[data-project-id="${seeded.project}"]`);
        if (!await vision.isVisible()) {
          await t.page.locator(`tr[data-row-project="${seeded.root}"] button[data-testid=expand]`).click();
        }
        await visible(vision, 'the "Vision" sub-project in the tree');
        await vision.first().click();
        await waitPath(t.page, u => u.pathname === `/projects/${seeded.project}/experiments`, 'the project\'s experiments');
        await visible(t.page.locator(`tr[data-task-id="${resnet.task_id}"]`), 'the experiment "train resnet" in the table');
      },
    },
    {
      name: 'select two experiments, press Compare',
      run: async t => {
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments`);
        const compare = t.page.locator('button[data-action=compare]');
        await visible(compare, 'the Compare button');
        if (!await compare.isDisabled()) throw new Error('Compare is enabled with nothing selected');
        await t.page.locator(`tr[data-task-id="${resnet.task_id}"] input[data-testid=select-row]`).check();
        if (!await compare.isDisabled()) throw new Error('Compare is enabled with one experiment selected');
        await t.page.locator(`tr[data-task-id="${vgg.task_id}"] input[data-testid=select-row]`).check();
        await eventually(async () => ({ok: !await compare.isDisabled(), found: 'disabled'}), 'Compare enabled with two selected');
        await t.shot('selected');
        await compare.click();
        await waitPath(t.page, u => u.pathname === '/compare' && u.searchParams.get('ids') === `${resnet.task_id},${vgg.task_id}`,
          'the compare page with both, in the order selected');
        for (const task of [resnet, vgg]) {
          await visible(t.page.locator(`[data-testid=compare-tasks] [data-task-id="${task.task_id}"]`), `"${task.name}" compared`);
        }
        for (const m of seeded.expect.metrics) {
          await visible(t.page.locator(`[data-testid=compare-scalars] [data-testid=scalar-chart][data-metric="${m}"] canvas`),
            `the overlaid chart of "${m}"`);
        }
        // Values aligned by kind: the numeric lr right, the text label left.
        const params = t.page.locator('[data-testid=compare-params]');
        await containsText(params, ['lr', String(resnet.params.lr), String(vgg.params.lr)], 'both lr values in the parameter diff');
        const align = async (key, kind) => eventually(async () => {
          const got = await params.locator(`tr[data-key="${key}"] td[data-kind]`).evaluateAll(els =>
            els.map(e => `${e.dataset.kind}:${getComputedStyle(e).textAlign}`));
          const want = kind === 'number' ? 'number:right' : 'text:left';
          return {ok: got.length === 2 && got.every(g => g === want), found: JSON.stringify(got)};
        }, `the ${key} values aligned as ${kind}s`);
        await align('General/lr', 'number');
        await align('General/label', 'text');
        // Debug samples side by side: a column per experiment, each with its images.
        const debug = t.page.locator('[data-testid=compare-debug]');
        await debug.scrollIntoViewIfNeeded();
        for (const task of [resnet, vgg]) {
          await visible(debug.locator(`.image-compare-head[data-task-id="${task.task_id}"]`), `the debug samples column of "${task.name}"`);
          await loadedImages(debug.locator(`.image-compare-cell[data-task-id="${task.task_id}"]`), 2, `"${task.name}"'s debug images`);
        }
        const columns = await debug.locator('.image-compare-cell[data-iter="1"]').evaluateAll(els =>
          els.map(e => ({task: e.dataset.taskId, top: Math.round(e.getBoundingClientRect().top), left: e.getBoundingClientRect().left})));
        if (columns.length !== 2 || columns[0].top !== columns[1].top || !(columns[0].left < columns[1].left)) {
          throw new Error(`iteration 1 of both is not one row side by side: ${JSON.stringify(columns)}`);
        }
        await t.page.locator('[data-testid=compare-plots]').scrollIntoViewIfNeeded();
        // (from the top: sticky headers would land mid-picture)
        await t.page.evaluate(() => window.scrollTo(0, 0));
        await t.shot('whole page', {fullPage: true});
      },
    },
    {
      name: 'debug samples paged: 3 iterations, nothing older',
      run: async t => {
        const {task} = seeded.paging.three;
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${task}/output/debugImages`);
        const group = pagedGroup(t.page);
        await visible(group, 'the debug samples');
        const r = await settled(group, [2, 1, 0], 'the three iterations, newest first');
        if (r.older !== 'none') throw new Error(`"Older" says ${r.older} with all three iterations shown`);
        await expectDisabled(group, 'images-older', true, 'all three shown');
        await expectDisabled(group, 'images-newer', true, 'the newest page');
        await loadedImages(group, 3, 'three loaded images');
      },
    },
    {
      name: 'debug samples paged: 30 iterations, older pages',
      run: async t => {
        const {task} = seeded.paging.thirty;
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${task}/output/debugImages`);
        const group = pagedGroup(t.page);
        await visible(group, 'the debug samples');
        const seen = [];
        for (let top = 29; top >= 0; top -= 3) {
          const want = [top, top - 1, top - 2].filter(i => i >= 0);
          const r = await settled(group, want, `iterations ${want.join(', ')}`);
          seen.push(...want);
          await loadedImages(group, want.length, `the images of iterations ${want.join(', ')}`);
          if (top === 17) await t.shot('page 5');
          const last = want[want.length - 1] === 0;
          if (r.older !== (last ? 'none' : 'yes')) throw new Error(`"Older" says ${r.older} at iterations ${want.join(', ')}`);
          await expectDisabled(group, 'images-older', last, `at iterations ${want.join(', ')}`);
          if (!last) await button(group, 'images-older').click();
        }
        if (seen.length !== 30) throw new Error(`saw ${seen.length} iterations: ${JSON.stringify(seen)}`);
        await button(group, 'images-newer').click();
        await settled(group, [5, 4, 3], 'one page newer');
        await button(group, 'images-newest').click();
        await settled(group, [29, 28, 27], 'back at the newest');
        await expectDisabled(group, 'images-older', false, 'at the newest again');
      },
    },
    {
      name: 'zoom on the big chart: the one-point spike is drawn at every zoom',
      run: async t => {
        const {task, points, spikeAt} = seeded.zoom;
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${task}/output/metrics/scalar`);
        const chart = t.page.locator('[data-testid=scalar-chart][data-metric="big"]');
        const state = async (want, what) => attribute(chart, 'data-zoom', want, what, 60000);
        const drawn = async what => {
          const got = await eventually(async () => spikeDrawn(await chartData(chart), spikeAt), what, 30000);
          return got.found;
        };
        const xs = async () => (await chartData(chart)).data[0];
        await state('full', 'the whole series with its buckets\' extremes');
        await drawn('the spike in the whole series');
        const whole = await xs();
        if (whole.length > 6000 || whole[whole.length - 1] < points - 1000) {
          throw new Error(`the whole series is not sampled: ${whole.length} x values up to ${whole[whole.length - 1]}`);
        }
        await t.shot('whole');
        // Zoomed in twice around the spike, each range read again; the
        // second holds few enough points to come back as they are.
        for (const [width, label] of [[0.02, 'a fiftieth'], [0.05, 'the raw points']]) {
          const before = await chartData(chart);
          const at = fracOf(before, spikeAt);
          await dragZoom(t.page, chart, Math.max(0, at - width / 2), Math.min(1, at + width / 2));
          await state('zoomed', `zoomed to ${label}`);
          await drawn(`the spike zoomed to ${label}`);
          const d = await chartData(chart);
          const span = d.x.max - d.x.min;
          if (!(span < (before.x.max - before.x.min) / 10)) throw new Error(`the x axis did not narrow: ${before.x.min}..${before.x.max} -> ${d.x.min}..${d.x.max}`);
          await t.shot(label);
        }
        const raw = await chartData(chart);
        const line = raw.data[1];
        const i = raw.data[0].indexOf(spikeAt);
        const steps = raw.data[0].slice(1).map((x, j) => x - raw.data[0][j]);
        if (i < 0 || line[i] !== 50 || steps.some(s => s !== 1)) {
          throw new Error(`zoomed in, the raw points are not drawn: spike ${i < 0 ? 'missing' : line[i]}, steps ${[...new Set(steps)].slice(0, 5)}`);
        }
        // A double-click goes back to the whole series.
        const box = await chart.locator('.u-over').boundingBox();
        await t.page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
        await state('full', 'the whole series after a double-click');
        await drawn('the spike after the reset');
        const back = await chartData(chart);
        if (back.x.max - back.x.min < points / 2) throw new Error(`the reset did not show the whole series: ${back.x.min}..${back.x.max}`);
      },
    },
    {
      name: 'plots tab: a responsive grid, each drawn when in view',
      run: async t => {
        const {task, plots} = seeded.paging.thirty;
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments/${task}/output/metrics/plots`);
        const cards = t.page.locator('[data-testid=plot]');
        await eventually(async () => ({ok: await cards.count() === plots, found: `${await cards.count()} plots`}), `${plots} plots`);
        const boxes = await cards.evaluateAll(els => els.map(e => e.getBoundingClientRect()).map(r => ({top: Math.round(r.top), left: r.left, width: r.width})));
        const perRow = boxes.filter(b => b.top === boxes[0].top).length;
        if (perRow < 2) throw new Error(`one plot a row on a 1440 px screen: ${JSON.stringify(boxes)}`);
        for (let i = 0; i < plots; i++) {
          const card = cards.nth(i);
          await card.scrollIntoViewIfNeeded();
          await visible(card.locator('svg.main-svg'), `plot ${i + 1} drawn once in view`, 30000);
        }
        // (from the top: sticky headers would land mid-picture)
        await t.page.evaluate(() => window.scrollTo(0, 0));
        await t.shot('whole page', {fullPage: true});
      },
    },
    {
      name: 'table with many columns scrolls inside its frame, the name pinned',
      fresh: true,
      run: async t => {
        await logIn(t);
        await t.page.goto(`${t.server.web}/projects/${seeded.project}/experiments`);
        await visible(t.page.locator(`tr[data-task-id="${resnet.task_id}"]`), 'the table');
        await t.page.locator('button[data-testid=columns]').first().click();
        const choices = t.page.locator('input[data-col-choice]');
        // the project's hyper-parameters and metrics load after the fixed
        // columns: wait for them, or only the fixed ones get checked
        const loaded = async () => {
          const [all, params, metrics] = [await choices.count(), await t.page.locator('input[data-col-choice^="hyperparams."]').count(),
            await t.page.locator('input[data-col-choice^="metric."]').count()];
          return {ok: all >= 8 && params > 0 && metrics > 0, found: `${all} columns to choose, ${params} hyper-parameters, ${metrics} metrics`};
        };
        await eventually(loaded, 'the column chooser with the project\'s hyper-parameters and metrics');
        for (const el of await choices.all()) if (!await el.isDisabled() && !await el.isChecked()) await el.check();
        await t.page.keyboard.press('Escape');
        const layout = () => t.page.evaluate(() => {
          const wrap = document.querySelector('.xt-wrap');
          const w = wrap.getBoundingClientRect();
          const heads = [...wrap.querySelectorAll('thead th')];
          const name = wrap.querySelector('thead th[data-col=name]').getBoundingClientRect();
          const cell = wrap.querySelector('tbody td[data-col=name]').getBoundingClientRect();
          const check = wrap.querySelector('thead th.xt-check-cell').getBoundingClientRect();
          return {
            inner: w.left + wrap.clientLeft, checkLeft: check.left, checkRight: check.right, scrolled: wrap.scrollLeft,
            columns: heads.length, page: document.documentElement.scrollWidth, viewport: window.innerWidth,
            scroll: wrap.scrollWidth, client: wrap.clientWidth, wrapLeft: w.left, wrapRight: w.right,
            nameLeft: name.left, cellLeft: cell.left, lastRight: heads[heads.length - 1].getBoundingClientRect().right,
          };
        });
        const before = await eventually(async () => {
          const l = await layout();
          return {ok: l.columns >= 8 && l.scroll > l.client, found: JSON.stringify(l), l};
        }, 'a table wider than its frame').then(r => r.l);
        if (before.page > before.viewport) throw new Error(`the page scrolls sideways: ${JSON.stringify(before)}`);
        await t.shot('left');
        await t.page.locator('.xt-wrap').evaluate(el => { el.scrollLeft = el.scrollWidth; });
        const after = await eventually(async () => {
          const l = await layout();
          return {ok: l.lastRight <= l.wrapRight + 1, found: JSON.stringify(l), l};
        }, 'the last column shown at the right edge of the frame').then(r => r.l);
        // Scrolled: the check box column at the frame's left edge, the name
        // column right after it, header and cells alike.
        const near = (a, b) => Math.abs(a - b) <= 1;
        if (!(after.scrolled > 0) || !near(after.checkLeft, after.inner) || !near(after.nameLeft, after.checkRight) ||
            !near(after.cellLeft, after.nameLeft)) {
          throw new Error(`the check box and name columns are not pinned: ${JSON.stringify(after)}`);
        }
        await t.shot('scrolled right');
        // A narrower window: still inside the frame, never the page.
        await t.page.setViewportSize({width: 1100, height: 800});
        await eventually(async () => {
          const l = await layout();
          return {ok: l.page <= l.viewport && l.wrapRight <= l.viewport && l.scroll > l.client, found: JSON.stringify(l)};
        }, 'at 1100 px the table still scrolls inside its frame');
      },
    },
  ];
}

export function allCases(seeded) {
  return [
    ...badStateCases(seeded).filter(c => c.name.startsWith('login')),
    ...firstHourCases(seeded),
    ...projectCases(seeded),
    ...experimentLinkCases(seeded),
    ...actionCases(seeded),
    ...badStateCases(seeded).filter(c => !c.name.startsWith('login')),
  ];
}
