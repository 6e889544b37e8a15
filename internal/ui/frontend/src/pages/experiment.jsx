// One experiment: /projects/<p>/experiments/<t>[/<tab path>] (or /tasks/),
// the paths the SDK prints. A header with status and actions, then tabs:
// overview, execution, configuration, artifacts, models, console, scalars,
// plots and debug samples. A running or queued experiment is polled, so
// the page follows it live.

import { useEffect, useState } from 'preact/hooks';
import './experiment.css';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Link, useLocation } from '../router.jsx';
import { Loaded, Spinner } from '../components/feedback.jsx';
import { ScalarsPanel } from '../charts/scalars.jsx';
import { PlotsPanel } from '../charts/plots.jsx';
import { DebugImagesPanel } from '../charts/debug-images.jsx';
import { TABS, parseTabPath, tabHref, taskBase } from './experiment-paths.js';
import { LIVE_POLL_MS, isLive } from './experiment-actions.jsx';
import { ExperimentHeader } from './experiment-header.jsx';
import { InfoTab } from './experiment-info.jsx';
import { ExecutionTab } from './experiment-execution.jsx';
import { ParamsTab } from './experiment-params.jsx';
import { ArtifactsTab } from './experiment-artifacts.jsx';
import { ModelsTab } from './experiment-models.jsx';
import { ConsoleTab } from './experiment-console.jsx';

// The task's fields with the names of what it refers to (model names
// come from the models tab's own call).
const FIELDS = ['*', 'user.name', 'project.name', 'parent.name', 'execution.queue.name'];

async function loadTask(id, signal) {
  const r = await call('tasks.get_all_ex', { id: [id], only_fields: FIELDS, search_hidden: true }, { signal });
  const t = (r.tasks || [])[0];
  if (!t) {
    const e = new Error(`No experiment with id ${id}`);
    e.status = 404;
    throw e;
  }
  return t;
}

export function ExperimentPage({ project, task, rest = '' }) {
  const loc = useLocation();
  const [live, setLive] = useState(false);
  const state = useApi(signal => loadTask(task, signal), [task], { poll: live ? LIVE_POLL_MS : 0 });
  useEffect(() => setLive(isLive(state.data)), [state.data?.status]);
  const { tab, item } = parseTabPath(rest);
  const base = taskBase(project, task, loc.path);
  useEffect(() => {
    if (state.data?.name) document.title = `${state.data.name} · Trove`;
  }, [state.data?.name]);

  // Another experiment's data stays until this one's arrives: not shown.
  if (state.data && state.data.id !== task && !state.error) return <Spinner />;
  return (
    <Loaded state={state} what="experiment" id={task}>
      {t => (
        <div class="xp" data-task-id={t.id}>
          <ExperimentHeader task={t} base={base} onChanged={state.reload} />
          <nav class="tabs xp-tabs" aria-label="Experiment">
            {TABS.map(x => (
              <Link key={x.key} href={tabHref(base, x.key)} data-tab={x.key} class={tab === x.key ? 'tab active' : 'tab'}
                aria-current={tab === x.key ? 'page' : undefined}>{x.label}</Link>
            ))}
          </nav>
          <section class="xp-body" data-active-tab={tab}>
            <TabBody tab={tab} item={item} task={t} live={isLive(t)} reload={state.reload} base={base} />
          </section>
        </div>
      )}
    </Loaded>
  );
}

function TabBody({ tab, item, task, live, reload, base }) {
  const project = task.project?.id;
  switch (tab) {
    case 'execution': return <ExecutionTab task={task} />;
    case 'hyper-params': return <ParamsTab task={task} item={item} reload={reload} />;
    case 'artifacts': return <ArtifactsTab task={task} item={item} />;
    case 'models': return <ModelsTab task={task} item={item} />;
    case 'log': return <ConsoleTab task={task} live={live} />;
    // The chart panels take a list of tasks (the compare page gives many).
    case 'scalars': return <ScalarsPanel tasks={[task]} project={project} live={live} />;
    case 'plots': return <PlotsPanel tasks={[task]} project={project} live={live} />;
    case 'debug': return <DebugImagesPanel tasks={[task]} project={project} live={live} />;
    default: return <InfoTab task={task} reload={reload} base={base} />;
  }
}
