// Seeds through the API what the SDK run does not make: queues, a worker
// with statistics, draft and running tasks for the actions, and a
// pipeline (a controller task in a hidden .pipelines project).

export async function seedAPI({api, key, secret, sdk}) {
  const auth = 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64');
  const call = async (op, body) => {
    const r = await fetch(`${api}/${op}`, {method: 'POST', headers: {Authorization: auth, 'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    const env = await r.json();
    if (r.status !== 200) throw new Error(`seed ${op}: ${r.status} ${env.meta?.result_msg}`);
    return env.data;
  };
  const [first, second, third, fourth] = sdk.tasks;
  const projects = {vision: first.project_id, detection: third.project_id, nlp: fourth.project_id};
  projects.demo = (await call('projects.get_all', {name: '^Trove Demo$', only_fields: ['id']})).projects[0].id;

  const defaultQueue = (await call('queues.get_default', {})).id;
  const gpuQueue = (await call('queues.create', {name: 'gpu-queue', tags: ['gpu']})).id;

  const script = {repository: 'https://example.com/repo.git', entry_point: 'train.py'};
  const draft = (await call('tasks.create', {name: 'draft to enqueue', project: projects.vision, type: 'training', script})).id;
  const edit = (await call('tasks.create', {name: 'draft to edit', project: projects.vision, type: 'training', script})).id;
  for (const id of [draft, edit]) {
    await call('tasks.edit_hyper_params', {task: id, hyperparams: [{section: 'General', name: 'lr', value: '0.3', type: 'float'}]});
    await call('tasks.edit_configuration', {task: id, configuration: [{name: 'model_cfg', value: '{"layers": [8]}', type: 'dictionary'}]});
  }
  const queued = (await call('tasks.create', {name: 'queued to dequeue', project: projects.vision, type: 'training', script})).id;
  await call('tasks.enqueue', {task: queued, queue: defaultQueue});
  // Run by an agent from gpu-queue: the Workloads tab has a queue to show.
  const running = (await call('tasks.create', {name: 'running to abort', project: projects.nlp, type: 'training', script})).id;
  await call('tasks.enqueue', {task: running, queue: gpuQueue});
  await call('queues.get_next_task', {queue: gpuQueue, task: running});
  await call('tasks.started', {task: running});

  const worker = 'trove-worker-1';
  await call('workers.register', {worker, queues: [defaultQueue, gpuQueue], timeout: 3600});
  for (let i = 0; i < 3; i++) {
    await call('workers.status_report', {worker, timestamp: Date.now(), task: running,
      machine_stats: {cpu_usage: [20 + i, 30], memory_used: 2048 + i, memory_free: 4096, gpu_usage: [50], gpu_memory_used: [1000]}});
  }

  // As the SDK's PipelineController does: the .pipelines folder is hidden too.
  await call('projects.create', {name: 'Trove Pipelines/.pipelines', system_tags: ['hidden']});
  const pipeProject = (await call('projects.create', {name: 'Trove Pipelines/.pipelines/demo pipeline', system_tags: ['hidden', 'pipeline'],
    description: 'a pipeline seeded through the API'})).id;
  const controller = (await call('tasks.create', {name: 'demo pipeline', project: pipeProject, type: 'controller', system_tags: ['pipeline'],
    hyperparams: {Pipeline: {step_count: {section: 'Pipeline', name: 'step_count', value: '2'}}}})).id;
  await call('tasks.started', {task: controller});
  await call('tasks.completed', {task: controller});

  return {
    projects, queues: {default: defaultQueue, gpu: gpuQueue}, worker,
    tasks: {resnet: first.task_id, vgg: second.task_id, yolo: third.task_id, bert: fourth.task_id, draft, edit, queued, running, controller},
    models: {resnet: first.model_id, vgg: second.model_id},
    pipelineProject: pipeProject, dataset: sdk.dataset_id,
    datasetProject: (await call('tasks.get_by_id', {task: sdk.dataset_id})).task.project,
  };
}
