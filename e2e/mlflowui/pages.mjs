// The pages the drive opens, in order, and what each must show. The UI
// routes with the URL's hash (#/experiments/...), under /mlflow/ of the
// web address. Checks are on visible text, which the UI's markup changes
// least from release to release.

async function shows(page, text, what) {
  try {
    await page.getByText(text, {exact: false}).first().waitFor({state: 'visible', timeout: 20000});
  } catch {
    throw new Error(`${what}: "${text}" not shown`);
  }
}

export function pages(web, seeded, {key, secret}) {
  const ui = `${web}/mlflow/`;
  const exp = seeded.experiment_id;
  const run = seeded.runs.baseline;
  const genai = seeded.genai_experiment_id;
  const overview = tab => `${ui}#/experiments/${genai}/overview/${tab}`;
  return [
    {
      name: 'login through Trove (no session: the login page, then back to the MLflow UI)',
      run: async page => {
        await page.goto(ui);
        await page.waitForURL(u => u.pathname === '/login' && u.searchParams.get('next') === '/mlflow/', {timeout: 15000});
        await page.locator('input[name=user]').fill(key);
        await page.locator('input[name=secret]').fill(secret);
        await page.locator('button[type=submit]').click();
        await page.waitForURL(u => u.pathname === '/mlflow/', {timeout: 15000});
      },
    },
    // The GenAI workflow (the UI's default): an experiment's overview asks
    // traces/metrics for each chart (trace counts, latency, errors, tokens,
    // assessments, tool calls) over the seed's traces.
    {
      name: 'GenAI overview: usage',
      run: async page => {
        await page.goto(overview('usage'));
        // three traces, one failed (trace_count by trace_status per day)
        await shows(page, 'Overall error rate: 33.3%', 'the errors chart');
        await shows(page, 'Token Usage', 'the token charts');
        await page.locator('canvas, svg.main-svg, svg.recharts-surface').first().waitFor({timeout: 20000});
      },
    },
    {
      name: 'GenAI overview: quality',
      run: async page => {
        await page.goto(overview('quality'));
        await shows(page, 'relevance', 'the quality summary');
        await shows(page, '0.80', 'the average of the score feedback');
      },
    },
    {
      name: 'GenAI overview: tool calls',
      run: async page => {
        await page.goto(overview('tool-calls'));
        await shows(page, 'Total Tool Calls', 'the tool calls tab');
        await shows(page, 'search_docs', 'the tool performance summary');
      },
    },
    {
      name: 'experiments list',
      run: async page => {
        await page.goto(`${ui}#/experiments`);
        await shows(page, 'ui-e2e-vision', 'the experiments list');
        // The UI opens in its GenAI workflow (traces, sessions); the seed is
        // model training, so switch as a user of it does (the UI keeps it).
        await page.getByText('Model training', {exact: true}).first().click();
      },
    },
    {
      name: 'experiment runs',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/runs`);
        await shows(page, 'baseline', 'the runs table');
        await shows(page, 'tuned', 'the runs table');
      },
    },
    {
      name: 'experiment chart view',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/runs?compareRunsMode=CHART`);
        await shows(page, 'loss', 'the runs charts');
        await page.locator('canvas, svg.main-svg').first().waitFor({timeout: 20000});
      },
    },
    {
      name: 'run overview (params, metrics, tags)',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/runs/${run}`);
        await shows(page, 'baseline', 'the run page');
        await shows(page, 'optimizer', 'the run\'s params');
        await shows(page, 'adam', 'the run\'s params');
        await shows(page, 'accuracy', 'the run\'s metrics');
        // The logged model is the run's output (runs/get's outputs.model_outputs):
        // the metrics table links it, and the "Logged models" row of the old
        // tag-based history (shown only for runs without outputs) is absent.
        try {
          await page.getByRole('link', {name: 'model', exact: true}).first().waitFor({state: 'visible', timeout: 20000});
        } catch {
          throw new Error('the run\'s metrics: the logged model "model" not linked');
        }
        if (await page.getByText('Logged models', {exact: true}).count()) {
          throw new Error('the run page shows the "Logged models" row: the run\'s outputs lack the logged model');
        }
      },
    },
    {
      name: 'run metric charts',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/runs/${run}/model-metrics`);
        await shows(page, 'loss', 'the run\'s charts');
        await page.locator('canvas, svg.main-svg').first().waitFor({timeout: 20000});
      },
    },
    {
      name: 'run metric history page',
      run: async page => {
        const q = new URLSearchParams({runs: JSON.stringify([run]), metric: JSON.stringify('loss'), experiments: JSON.stringify([exp]),
          plot_metric_keys: JSON.stringify(['loss']), plot_layout: '{}', x_axis: 'step', y_axis_scale: 'linear', line_smoothness: '1',
          show_point: 'false', deselected_curves: '[]', last_linear_y_axis_range: '[]'});
        await page.goto(`${ui}#/metric?${q}`);
        await page.locator('canvas, svg.main-svg').first().waitFor({timeout: 20000});
      },
    },
    {
      name: 'run artifacts: a text file',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/runs/${run}/artifacts/notes.txt`);
        await shows(page, 'notes of the baseline run', 'the text artifact');
      },
    },
    {
      name: 'run artifacts: an image',
      run: async page => {
        // opened from the tree: the page keeps the file it shows when only the hash changes
        await page.getByText('plots', {exact: true}).first().click();
        await page.getByText('gradient.png', {exact: true}).first().click();
        await page.locator('img[src^="blob:"], img[src*="get-artifact"]').first().waitFor({timeout: 20000});
      },
    },
    {
      name: 'run artifacts: the logged model',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/runs/${run}/artifacts`);
        await shows(page, 'config.json', 'the artifact tree');
        await shows(page, 'plots', 'the artifact tree');
      },
    },
    {
      name: 'compare runs',
      run: async page => {
        const ids = encodeURIComponent(JSON.stringify([seeded.runs.baseline, seeded.runs.tuned]));
        await page.goto(`${ui}#/compare-runs?runs=${ids}&experiments=${encodeURIComponent(JSON.stringify([exp]))}`);
        await shows(page, 'tuned', 'the comparison');
        await shows(page, 'optimizer', 'the compared params');
      },
    },
    {
      name: 'logged models of the experiment',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/models`);
        await shows(page, 'model', 'the logged models');
      },
    },
    {
      name: 'logged model page',
      run: async page => {
        await page.goto(`${ui}#/experiments/${exp}/models/${seeded.runs.model_id}`);
        await shows(page, 'baseline', 'the logged model\'s source run');
      },
    },
    {
      name: 'model registry',
      run: async page => {
        await page.goto(`${ui}#/models`);
        await shows(page, seeded.model, 'the registered models');
      },
    },
    {
      name: 'registered model',
      run: async page => {
        await page.goto(`${ui}#/models/${encodeURIComponent(seeded.model)}`);
        await shows(page, 'a classifier for the UI drive', 'the model\'s description');
        await shows(page, 'champion', 'the model\'s alias');
      },
    },
    {
      name: 'model version',
      run: async page => {
        await page.goto(`${ui}#/models/${encodeURIComponent(seeded.model)}/versions/1`);
        await shows(page, 'validated', 'the version\'s tag');
        // the schema is read from the version's MLmodel file (model-versions/get-artifact)
        await shows(page, 'Inputs (1)', 'the version\'s schema');
      },
    },
  ];
}
