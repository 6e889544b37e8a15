// The pages and actions of issue 13, in the order the drive runs them.
// Each step opens a URL (or stays where the previous step left the app)
// and may act on the page; an action returns a short note or throws.

import {contextMenu, confirm, clickText, fillDialog} from './ui.mjs';

export function pages(web, s) {
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
      await page.locator('.ag-header-cell, th, .header-cell, [class*="header"]').filter({hasText: /^\s*NAME\s*$/i}).first().click({timeout: 5000});
      return 'sorted by the NAME column';
    }},
    {name: 'tasks table: filter by status', act: async page => {
      await page.goto(`${web}/projects/${p.vision}/tasks?filter=status:completed`);
      return 'status filter from the URL';
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

    // Actions.
    {name: 'create project', url: `${web}/projects`, act: async page => {
      await clickText(page, /NEW PROJECT/i);
      await fillDialog(page, 'input', 'UI made project');
      await clickText(page, /CREATE PROJECT/i, 'mat-dialog-container');
      return 'NEW PROJECT -> "UI made project"';
    }},
    {name: 'rename project', url: `${web}/projects`, act: async page => {
      await page.locator('sm-project-card, .project-card').filter({hasText: 'UI made project'}).first().click({button: 'right'});
      await clickText(page, /Rename/i, '.mat-mdc-menu-panel, .cdk-overlay-pane');
      const input = page.locator('sm-project-card input, .project-card input, sm-inline-edit input').first();
      await input.fill('UI renamed project');
      await input.press('Enter');
      return 'card menu Rename -> "UI renamed project"';
    }},
    {name: 'clone task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'train resnet', /^Clone/i);
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
      await contextMenu(page, 'draft to enqueue', /^Enqueue/i);
      await confirm(page, /ENQUEUE/i);
      return 'context menu Enqueue (default queue)';
    }},
    {name: 'dequeue task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'queued to dequeue', /^Dequeue/i);
      await confirm(page, /DEQUEUE/i);
      return 'context menu Dequeue';
    }},
    {name: 'abort task', url: `${web}/projects/${p.nlp}/tasks`, act: async page => {
      await contextMenu(page, 'running to abort', /^Abort/i);
      await confirm(page, /ABORT/i);
      return 'context menu Abort';
    }},
    {name: 'publish task', url: `${web}/projects/${p.vision}/tasks`, act: async page => {
      await contextMenu(page, 'train vgg', /^Publish/i);
      await confirm(page, /PUBLISH/i);
      return 'context menu Publish';
    }},
    {name: 'reset task', url: `${web}/projects/${p.detection}/tasks`, act: async page => {
      await contextMenu(page, 'train yolo', /^Reset/i);
      await confirm(page, /RESET/i);
      return 'context menu Reset';
    }},
    {name: 'edit hyper-parameters', url: task(p.vision, t.draft, 'hyper-params/hyper-param/General'), act: async page => {
      await clickText(page, /^\s*EDIT\s*$/i, 'sm-experiment-info-hyper-parameters-form-container, sm-experiment-info-hyper-parameters, body');
      const value = page.locator('sm-experiment-info-hyper-parameters-form input, input[name*="value"], .param-value input').last();
      await value.fill('0.25');
      await clickText(page, /^\s*SAVE\s*$/i);
      return 'EDIT -> lr 0.25 -> SAVE';
    }},
    {name: 'edit configuration', url: task(p.vision, t.draft, 'hyper-params/configuration/model_cfg'), act: async page => {
      await clickText(page, /^\s*EDIT\s*$/i);
      const editor = page.locator('mat-dialog-container .ace_text-input, mat-dialog-container textarea').first();
      await editor.focus();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('{"layers": [8, 4]}');
      await clickText(page, /^\s*SAVE\s*$/i, 'mat-dialog-container');
      return 'EDIT -> {"layers": [8, 4]} -> SAVE';
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
      await contextMenu(page, 'train yolo', /^Archive/i);
      return 'context menu Archive';
    }},
    {name: 'restore task', url: `${web}/projects/${p.detection}/tasks?archive=true`, act: async page => {
      await contextMenu(page, 'train yolo', /^Restore/i);
      return 'archive view, context menu Restore';
    }},
    {name: 'delete task', url: `${web}/projects/${p.detection}/tasks`, act: async page => {
      await contextMenu(page, 'train yolo', /^Archive/i);
      await page.goto(`${web}/projects/${p.detection}/tasks?archive=true`);
      await contextMenu(page, 'train yolo', /^Delete/i);
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
      await contextMenu(page, 'ui-queue', /Rename/i);
      await fillDialog(page, 'input', 'ui-queue-renamed');
      await clickText(page, /^\s*SAVE\s*$/i, 'mat-dialog-container');
      return 'context menu Rename -> ui-queue-renamed';
    }},
    {name: 'delete queue', url: `${web}/workers-and-queues/queues`, act: async page => {
      await contextMenu(page, 'ui-queue-renamed', /Delete/i);
      await confirm(page, /DELETE/i);
      return 'context menu Delete';
    }},
    {name: 'create credentials', url: `${web}/settings/workspace-configuration`, act: async page => {
      await clickText(page, /Create new credentials/i);
      await page.waitForTimeout(1500);
      await clickText(page, /CREATE|Done|CLOSE/i, 'mat-dialog-container').catch(() => {});
      await page.keyboard.press('Escape');
      return 'Create new credentials';
    }},
    {name: 'revoke credentials', url: `${web}/settings/workspace-configuration`, act: async page => {
      await page.locator('[class*="credential"] .al-ico-trash, [class*="credential"] button:has(i.al-ico-trash), i.al-ico-trash').last().click({timeout: 5000});
      await confirm(page, /REVOKE|DELETE|YES/i);
      return 'trash icon -> revoke';
    }},
    {name: 'delete project', url: `${web}/projects`, act: async page => {
      await page.locator('sm-project-card, .project-card').filter({hasText: /UI (renamed|made) project/}).first().click({button: 'right'});
      await clickText(page, /Delete/i, '.mat-mdc-menu-panel, .cdk-overlay-pane');
      await confirm(page, /DELETE/i);
      return 'card menu Delete';
    }},
  ];
}
