// Seeds a fresh Trove once per backend: two training runs of
// e2e/flows/train.py with the real clearml SDK (seed.py), then through the
// API what the cases act on: a running task to abort, a queue holding
// three tasks to reorder, and two tasks whose debug samples are paged (3
// and 30 iterations, an image file each on the file server; the 30 one
// also has several plots for the plots grid), and a task whose one scalar
// series of 1,000,000 points has a one-point spike (the zoom case).

import {execFile} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {addEvents, apiClient} from './server.mjs';
import {seedBig} from './zoom.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');

function python() {
  if (process.env.TROVE_E2E_PYTHON) return Promise.resolve(process.env.TROVE_E2E_PYTHON);
  if (process.env.TROVE_E2E_VENV) return Promise.resolve(path.join(process.env.TROVE_E2E_VENV, 'bin', 'python'));
  return run(path.join(repo, 'scripts', 'e2e-venv'), [], {}).then(out => path.join(out.trim(), 'bin', 'python'));
}

function run(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, {maxBuffer: 64 << 20, timeout: 600000, ...opts}, (err, stdout, stderr) => {
      if (err) reject(new Error(`${path.basename(cmd)} ${args.map(a => path.basename(a)).join(' ')} failed: ${err.message}\n${stderr}${stdout.slice(-4000)}`));
      else resolve(stdout);
    });
  });
}

// seedSDK runs seed.py against the server and returns its SEED_RESULT.
async function seedSDK(server) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-ui-e2e-home-'));
  try {
    const out = await run(await python(), [path.join(here, 'seed.py')], {
      env: {
        ...process.env, HOME: home, PYTHONDONTWRITEBYTECODE: '1',
        CLEARML_API_HOST: server.api, CLEARML_FILES_HOST: server.files, CLEARML_WEB_HOST: server.web,
        CLEARML_API_ACCESS_KEY: server.key, CLEARML_API_SECRET_KEY: server.secret,
      },
    });
    const line = out.split('\n').find(l => l.startsWith('SEED_RESULT '));
    if (!line) throw new Error(`seed.py printed no SEED_RESULT:\n${out.slice(-4000)}`);
    return JSON.parse(line.slice('SEED_RESULT '.length));
  } finally {
    fs.rmSync(home, {recursive: true, force: true});
  }
}

export async function seed(server) {
  const call = apiClient(server);
  const sdk = await seedSDK(server);
  const [resnet, vgg] = sdk.tasks;
  const project = resnet.project_id;
  const root = (await call('projects.get_all', {name: '^UI E2E$', only_fields: ['id']})).projects[0]?.id;
  if (!root) throw new Error('seed: the SDK made no "UI E2E" parent project');

  // A task the API marks started, as an agent would: the abort case stops it.
  const running = (await call('tasks.create', {name: 'running to abort', project, type: 'training'})).id;
  await call('tasks.started', {task: running});

  // A queue with three entries, in a known order.
  const queue = (await call('queues.create', {name: 'ui-e2e-queue'})).id;
  const queued = [];
  for (const n of ['first', 'second', 'third']) {
    const id = (await call('tasks.create', {name: `queued ${n}`, project, type: 'training',
      script: {repository: 'https://example.com/repo.git', entry_point: 'train.py'}})).id;
    await call('tasks.enqueue', {task: id, queue});
    queued.push(id);
  }
  const paging = {
    three: await seedImages(server, call, project, 'debug samples of 3 iterations', 3, 0),
    thirty: await seedImages(server, call, project, 'debug samples of 30 iterations', 30, 5),
  };
  // One series of 1,000,000 points with a one-point spike at ZOOM.spikeAt.
  const zoomTask = (await call('tasks.create', {name: 'a million points with a spike', project, type: 'training'})).id;
  await seedBig(server, zoomTask, {points: ZOOM.points, series: 1, spikeAt: ZOOM.spikeAt});
  const traces = await seedTraces(server);
  return {
    project, root, running, queue, queued, paging, traces,
    zoom: {task: zoomTask, ...ZOOM},
    tasks: {resnet, vgg},
    expect: sdk.expect,
  };
}

// queueOrder reads a queue's entries from the server, front first.
export async function queueOrder(server, queue) {
  const q = (await apiClient(server)('queues.get_by_id', {queue})).queue;
  return q.entries.map(e => e.task);
}

export async function taskStatus(server, task) {
  return (await apiClient(server)('tasks.get_by_id', {task})).task.status;
}

// ZOOM is the big series of the zoom case: its size and where its spike is.
export const ZOOM = {points: 1000000, spikeAt: 654321};

// PAGED_METRIC is the debug-image metric of the paging tasks.
export const PAGED_METRIC = 'paged';

// seedImages makes a task with one debug image per iteration 0..iters-1
// (each its own SVG file on the file server, showing its iteration, as
// the SDK uploads them) and `plots` plotly figures of different metrics.
async function seedImages(server, call, project, name, iters, plots) {
  const task = (await call('tasks.create', {name, project, type: 'training'})).id;
  const auth = 'Basic ' + Buffer.from(`${server.key}:${server.secret}`).toString('base64');
  const events = [];
  const ts = Date.now();
  for (let it = 0; it < iters; it++) {
    const storage = `UI E2E/Vision/${name}.${task}/metrics/${PAGED_METRIC}/sample/sample_${String(it).padStart(8, '0')}.svg`;
    const hue = (it * 37) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><rect width="96" height="64" fill="hsl(${hue},60%,55%)"/>` +
      `<text x="48" y="40" font-size="22" font-family="sans-serif" text-anchor="middle" fill="#fff">${it}</text></svg>`;
    const form = new FormData();
    form.append(storage, new Blob([svg], {type: 'image/svg+xml'}), storage.split('/').pop());
    const r = await fetch(`${server.files}/`, {method: 'POST', body: form, headers: {Authorization: auth}});
    if (r.status !== 200) throw new Error(`seed: upload ${storage}: HTTP ${r.status} ${(await r.text()).slice(0, 200)}`);
    events.push({type: 'training_debug_image', task, metric: PAGED_METRIC, variant: 'sample', iter: it, timestamp: ts + it,
      url: `${server.files}/${storage}`});
  }
  for (let p = 0; p < plots; p++) {
    const x = Array.from({length: 20}, (_, i) => i);
    const figure = {data: [{type: 'scatter', mode: 'lines', name: `series ${p}`, x, y: x.map(i => Math.sin(i / 3 + p) * (p + 1))}],
      layout: {title: {text: `figure ${p}`}, xaxis: {title: {text: 'step'}}}};
    events.push({type: 'plot', task, metric: `grid plot ${p}`, variant: 'figure', iter: iters - 1, timestamp: ts, plot_str: JSON.stringify(figure)});
  }
  await addEvents(server, events);
  return {task, iters, plots};
}

// seedTraces logs one MLflow 3 trace through MLflow's API, as the mlflow
// client does: the trace's info, then its spans as traces.json through
// the artifact proxy. The child span's input is markup, which the trace
// view must show as text.
export const TRACE_INPUT = '<img src=x onerror="window.__traceXSS=1">';
async function seedTraces({api, key, secret}) {
  const auth = 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64');
  const mlflow = async (method, path, body) => {
    const r = await fetch(`${api}${path}`, {method, body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: {Authorization: auth, 'Content-Type': 'application/json'}, signal: AbortSignal.timeout(60000)});
    const text = await r.text();
    if (r.status !== 200) throw new Error(`seed traces: ${method} ${path}: HTTP ${r.status} ${text.slice(0, 200)}`);
    return text ? JSON.parse(text) : {};
  };
  const project = (await mlflow('POST', '/api/2.0/mlflow/experiments/create', {name: 'UI E2E traced'})).experiment_id;
  const id = 'tr-0123456789abcdef0123456789abcdef';
  const info = {trace_id: id, trace_location: {type: 'MLFLOW_EXPERIMENT', mlflow_experiment: {experiment_id: project}},
    request_time: new Date().toISOString(), execution_duration: '0.300s', state: 'OK',
    request_preview: '{"question": "why?"}', tags: {'mlflow.traceName': 'answer', team: 'nlp'}};
  const got = await mlflow('POST', '/api/3.0/mlflow/traces', {trace: {trace_info: info}});
  const loc = got.trace.trace_info.tags['mlflow.artifactLocation'].replace(/^mlflow-artifacts:\//, '');
  const t0 = Date.now() * 1e6;
  const span = (sid, parent, name, start, end, inputs, outputs) => ({trace_id: 'ASNFZ4mrze8BI0VniavN7w==', span_id: sid,
    parent_span_id: parent, name, start_time_unix_nano: t0 + start * 1e6, end_time_unix_nano: t0 + end * 1e6,
    attributes: {'mlflow.traceRequestId': JSON.stringify(id), 'mlflow.spanInputs': JSON.stringify(inputs),
      'mlflow.spanOutputs': JSON.stringify(outputs)}, status: {code: 'STATUS_CODE_OK'}, events: []});
  const data = {spans: [span('AAAAAAAAAAE=', '', 'answer', 0, 300, {question: 'why?'}, 'because'),
    span('AAAAAAAAAAI=', 'AAAAAAAAAAE=', 'retrieve', 50, 200, {query: TRACE_INPUT}, ['doc-1'])]};
  await mlflow('PUT', `/api/2.0/mlflow-artifacts/artifacts/${loc}/traces.json`, JSON.stringify(data));
  return {project, id};
}
