// The pages and actions of issue 13, in the order the drive runs them.
// Each step opens a URL (or stays where the previous step left the app)
// and may act on the page; an action returns a short note or throws.

import {cardMenu, contextMenu, confirm, clickText, fillDialog} from './ui.mjs';

// has says what the build can do (drive.mjs reads it from the build):
// workloads, advancedSearch.
export function pages(web, s, has = {}) {
  const p = s.projects;
  const t = s.tasks;
  const task = (project, id, tab) => `${web}/projects/${project}/tasks/${id}/output/${tab}`;
  const compare = tab => `${web}/projects/${p.vision}/compare-tasks;ids=${t.resnet},${t.vgg}/${tab}`;
  return [
    {name: 'dashboard', url: `${web}/dashboard`},
    {name: 'projects', url: `${web}/projects`},
    {name: 'nested projects', url: `${web}/projects/${p.demo}/projects`},
    {name: 'tasks table', url: `${web}/projects/${p.vision}/tasks`},
    {name: 'tasks table: sort by name', act: async page => {
      // v2.0 names the button "Sort Icon", 2.4 and later "sortTableColumn".
      await page.locator('th').filter({hasText: /NAME/}).locator('[data-id="Sort Icon"], [data-id="sortTableColumn"]').first().click();
      return 'sorted by the NAME column';
    }},
    {name: 'tasks table: filter by status', act: async (page, _, rec) => {
      await page.goto(`${web}/projects/${p.vision}/tasks?filter=status:completed`);
      await rec.settle();
      const rows = await page.locator('.ag-row, tr, .table-row, [role="row"]').filter({hasText: /train (resnet|vgg)/}).count();
      const hidden = await page.locator('.ag-row, tr, .table-row, [role="row"]').filter({hasText: 'draft to enqueue'}).count();
      if (!rows || hidden) throw new Error(`completed filter shows ${rows} trained rows and ${hidden} drafts`);
      // The app keeps a project's filters; an order without a filter in
      // the URL clears them, so the actions below see every task.
      await rec.open(`${web}/projects/${p.vision}/tasks?order=-last_update`);
      return 'status filter from the URL (only completed rows shown), then cleared';
    }},
    {name: 'tasks table: CSV export', act: async page => {
      await page.locator('sm-menu[data-id="downloadCSV"]').click();
      await page.locator('.cdk-overlay-container .mat-mdc-menu-item').filter({hasText: /Download first/}).click();
      return 'download menu -> Download first N items';
    }},
    {name: 'tasks table: all projects', url: `${web}/projects/*/tasks`},
    {name: 'task execution', url: task(p.vision, t.resnet, 'execution')},
    {name: 'task configuration', url: task(p.vision, t.resnet, 'hyper-params/configuration/model_cfg')},
    {name: 'task hyper-parameters', url: task(p.vision, t.resnet, 'hyper-params/hyper-param/General')},
    {name: 'task artifacts', url: task(p.vision, t.resnet, 'artifacts')},
    {name: 'task output model', url: task(p.vision, t.resnet, `artifacts/output-model/${s.models.resnet}`)},
    {name: 'task info', url: task(p.vision, t.resnet, 'general')},
    {name: 'task console', url: task(p.vision, t.resnet, 'log')},
    {name: 'task scalars', url: task(p.vision, t.resnet, 'metrics/scalar')},
    {name: 'task plots', url: task(p.vision, t.resnet, 'metrics/plots')},
    {name: 'task debug samples', url: task(p.vision, t.resnet, 'debugImages')},
    {name: 'compare details', url: compare('details')},
    {name: 'compare hyper-parameters', url: compare('hyper-params/values')},
    {name: 'compare scalars', url: compare('scalars/graph')},
    {name: 'compare plots', url: compare('metrics-plots')},
    {name: 'compare debug samples', url: compare('debug-images')},
    {name: 'models table', url: `${web}/projects/${p.vision}/models`},
    {name: 'model page', url: `${web}/projects/${p.vision}/models/${s.models.resnet}/general`},
    {name: 'model labels', url: `${web}/projects/${p.vision}/models/${s.models.resnet}/labels`},
    {name: 'model metadata', url: `${web}/projects/${p.vision}/models/${s.models.resnet}/metadata`},
    {name: 'workers', url: `${web}/workers-and-queues/workers`},
    {name: 'queues', url: `${web}/workers-and-queues/queues`},
    {name: 'settings profile', url: `${web}/settings/profile`},
    {name: 'settings workspace credentials', url: `${web}/settings/workspace-configuration`},
    {name: 'datasets', url: `${web}/datasets`},
    {name: 'dataset versions', url: `${web}/datasets/simple/${s.datasetProject}/tasks`},
    {name: 'pipelines', url: `${web}/pipelines`},
    {name: 'pipeline runs', url: `${web}/pipelines/${s.pipelineProject}/tasks`},
    {name: 'reports', url: `${web}/reports`},
    ...(has.workloads ? [
      {name: 'project workloads', url: `${web}/projects/${p.demo}/workloads`, act: async (page, _, rec) => {
        const call = rec.current().calls.find(c => c.op === 'organization.get_project_workloads');
        if (!call || call.status !== 200) throw new Error(`organization.get_project_workloads: ${call ? call.status : 'not called'}`);
        const queues = (call.response?.queues?.total || []).map(q => q.name);
        if (!queues.includes('gpu-queue')) throw new Error(`the queues breakdown names ${JSON.stringify(queues)}, not gpu-queue`);
        await page.locator('sm-workloads-page').getByText('gpu-queue').first().waitFor();
        return `organization.get_project_workloads answered 200; the page draws the queues ${queues.join(', ')}`;
      }},
    ] : []),
    ...(has.advancedSearch ? [
      {name: 'advanced search', url: `${web}/dashboard?tab=tasks&advanced=true&gq=${encodeURIComponent('{"status": ["completed"], "tags": ["-ui-tag"], "order_by": ["-last_update"]}')}`,
        act: async (page, _, rec) => {
          const call = rec.current().calls.find(c => c.op === 'tasks.get_all_ex' && c.body?.status?.[0] === 'completed');
          if (!call || call.status !== 200) throw new Error(`tasks.get_all_ex with the raw filter: ${call ? call.status : 'not called'}`);
          const names = (call.response?.tasks || []).map(t => t.name);
          if (!names.includes('train resnet') || names.includes('draft to enqueue')) throw new Error(`the raw filter found ${JSON.stringify(names)}`);
          await page.locator('mat-dialog-container').getByText('train resnet').first().waitFor();
          return `raw filter {"status": ["completed"], ...}: tasks.get_all_ex answered ${names.length} completed tasks, the dialog lists them`;
        }},
    ] : []),

    // Actions.
    {name: 'create project', url: `${web}/projects`, act: async page => {
      await clickText(page, /NEW PROJECT/i);
      await fillDialog(page, 'input', 'UI made project');
      await clickText(page, /CREATE PROJECT/i, 'mat-dialog-container');
      return 'NEW PROJECT -> "UI made project"';
    }},
    {name: 'rename project', url: `${web}/projects`, act: async page => {
      await cardMenu(page, 'UI made project', 'Edit');
      await fillDialog(page, 'input', 'UI renamed project');
      await page.locator('mat-dialog-container button[data-id="Save"]').click();
      return 'card menu Edit -> "UI renamed project" -> SAVE';
    }},
    {name: 'move project', url: `${web}/projects`, act: async page => {
      await cardMenu(page, 'UI renamed project', 'Move To');
      const input = page.locator('mat-dialog-container input').first();
      await input.fill('Trove Demo');
      await page.locator('mat-option').filter({hasText: /^\s*Trove Demo\s*$/}).first().click();
      await confirm(page, /MOVE/i);
      return 'card menu Move to -> Trove Demo';
    }},
    {name: 'clone task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'train resnet', /^\s*Clone/i);
      await confirm(page, /CLONE/i);
      return 'context menu Clone';
    }},
    {name: 'tag task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'train vgg', /Add Tag/i);
      const input = page.locator('.cdk-overlay-pane input').first();
      await input.fill('ui-tag');
      await input.press('Enter');
      await page.keyboard.press('Escape');
      return 'context menu Add Tag -> ui-tag';
    }},
    {name: 'enqueue task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'draft to enqueue', /^\s*Enqueue/i);
      await confirm(page, /ENQUEUE/i);
      return 'context menu Enqueue (default queue)';
    }},
    {name: 'dequeue task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'queued to dequeue', /^\s*Dequeue/i);
      await confirm(page, /DEQUEUE/i);
      return 'context menu Dequeue';
    }},
    {name: 'abort task', url: `${web}/projects/${p.nlp}/tasks`, act: async page => {
      await contextMenu(page, 'running to abort', /^\s*Abort/i);
      await confirm(page, /ABORT/i);
      return 'context menu Abort';
    }},
    {name: 'publish task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'train vgg', /^\s*Publish/i);
      await confirm(page, /PUBLISH/i);
      return 'context menu Publish';
    }},
    {name: 'reset task', url: `${web}/projects/${p.detection}/tasks`, act: async page => {
      await contextMenu(page, 'train yolo', /^\s*Reset/i);
      await confirm(page, /RESET/i);
      return 'context menu Reset';
    }},
    {name: 'edit hyper-parameters', url: task(p.vision, t.edit, 'hyper-params/hyper-param/General'), act: async page => {
      await page.locator('sm-editable-section').first().hover();
      await page.locator('#editSection').first().click({force: true});
      // The value field of lr (seeded 0.3): 2.4+ puts a search field first.
      const inputs = page.locator('sm-experiment-execution-parameters input');
      await inputs.first().waitFor();
      const at = await inputs.evaluateAll(els => els.findIndex(el => el.value === '0.3'));
      if (at < 0) throw new Error('no field holds the seeded lr value 0.3');
      await inputs.nth(at).fill('0.25');
      await page.locator('[data-id="SaveButton"]').first().click();
      return 'EDIT -> lr 0.25 -> SAVE';
    }},
    {name: 'edit configuration', url: task(p.vision, t.edit, 'hyper-params/configuration/model_cfg'), act: async page => {
      const section = page.locator('sm-editable-section.editable-design');
      await section.hover();
      await section.locator('button').filter({hasText: /^\s*EDIT\s*$/}).first().click({force: true});
      const editor = page.locator('mat-dialog-container .ace_text-input').first();
      await editor.focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{"layers": [8, 4]}');
      await page.locator('mat-dialog-container [data-id="okButton"]').click();
      await page.locator('sm-editable-section.editable-design [data-id="SaveButton"]').click().catch(() => {});
      return 'EDIT -> {"layers": [8, 4]} -> OK';
    }},
    {name: 'move task', url: `${web}/projects/${p.nlp}/tasks`, act: async page => {
      await contextMenu(page, 'train bert', /Move to Project/i);
      const input = page.locator('mat-dialog-container input').first();
      await input.fill('Trove Demo/Vision');
      await page.locator('.mat-mdc-autocomplete-panel mat-option, mat-option').filter({hasText: 'Vision'}).first().click();
      await confirm(page, /MOVE/i);
      return 'context menu Move to Project -> Trove Demo/Vision';
    }},
    {name: 'archive task', url: `${web}/projects/${p.detection}/tasks`, act: async page => {
      await contextMenu(page, 'train yolo', /^\s*Archive/i);
      return 'context menu Archive';
    }},
    {name: 'restore task', url: `${web}/projects/${p.detection}/tasks?archive=true`, act: async page => {
      await contextMenu(page, 'train yolo', /^\s*Restore/i);
      return 'archive view, context menu Restore';
    }},
    {name: 'delete task', url: `${web}/projects/${p.detection}/tasks`, act: async (page, _, rec) => {
      await contextMenu(page, 'train yolo', /^\s*Archive/i);
      await rec.open(`${web}/projects/${p.detection}/tasks?archive=true`);
      await contextMenu(page, 'train yolo', /^\s*Delete/i);
      await confirm(page, /DELETE/i);
      return 'archive, then context menu Delete';
    }},
    {name: 'create queue', url: `${web}/workers-and-queues/queues`, act: async page => {
      await clickText(page, /NEW QUEUE/i);
      await fillDialog(page, 'input', 'ui-queue');
      await clickText(page, /^\s*CREATE\s*$/i, 'mat-dialog-container');
      return 'NEW QUEUE -> ui-queue';
    }},
    {name: 'rename queue', url: `${web}/workers-and-queues/queues`, act: async page => {
      await contextMenu(page, 'ui-queue', /Update/i);
      await fillDialog(page, 'input', 'ui-queue-renamed');
      await page.locator('mat-dialog-container mat-dialog-actions button').click();
      return 'context menu Update -> ui-queue-renamed';
    }},
    {name: 'delete queue', url: `${web}/workers-and-queues/queues`, act: async page => {
      await contextMenu(page, 'ui-queue-renamed', /Delete/i);
      await confirm(page, /DELETE/i);
      return 'context menu Delete';
    }},
    {name: 'create credentials', url: `${web}/settings/workspace-configuration`, act: async page => {
      await page.locator('button.add-button').filter({hasText: /Create new credentials/i}).click();
      await page.locator('mat-dialog-container').waitFor();
      await page.keyboard.press('Escape');
      return 'Create new credentials';
    }},
    {name: 'revoke credentials', url: `${web}/settings/workspace-configuration`, act: async (page, _, rec) => {
      // The row's buttons show on hover. Revoke a key the drive made, never
      // the one its session came from.
      const rows = page.locator('sm-admin-credential-table tbody tr').filter({hasNotText: s.sessionKey});
      const row = rows.last();
      const key = (await row.locator('td').nth(1).innerText()).trim();
      await row.hover();
      await row.locator('button[smtooltip="Revoke"] mat-icon').click();
      await confirm(page, /REVOKE/i);
      await rec.settle();
      const call = rec.current().calls.find(c => c.op === 'auth.revoke_credentials');
      if (!call || call.status !== 200 || call.body?.access_key !== key) throw new Error(`auth.revoke_credentials for ${key}: ${call ? call.status : 'not called'}`);
      await page.locator('sm-admin-credential-table tbody tr').filter({hasText: key}).waitFor({state: 'detached', timeout: 8000});
      return `hover the row of ${key} -> Revoke -> REVOKE: auth.revoke_credentials answered 200, the row is gone`;
    }},
    {name: 'delete project', url: `${web}/projects/${p.demo}/projects`, act: async page => {
      await cardMenu(page, /UI (renamed|made) project/, 'Delete');
      await confirm(page, /DELETE/i);
      return 'card menu Delete';
    }},
  ];
}
