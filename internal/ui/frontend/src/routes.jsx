// The route table: every page of the UI, by path. The paths are the ones
// the ClearML SDK prints, with /tasks/ accepted in place of /experiments/.

import { ProjectsPage } from './pages/projects.jsx';
import { ExperimentsPage } from './pages/experiments.jsx';
import { ExperimentPage } from './pages/experiment.jsx';
import { ComparePage } from './pages/compare.jsx';
import { ModelsPage } from './pages/models.jsx';
import { ModelPage } from './pages/model.jsx';
import { QueuesPage } from './pages/queues.jsx';
import { WorkersPage } from './pages/workers.jsx';
import { SettingsPage } from './pages/settings.jsx';
import { TracesPage, TracePage } from './pages/traces.jsx';

export const routes = [
  { path: '/projects', page: ProjectsPage, nav: 'projects' },
  { path: '/projects/:project', page: ExperimentsPage, nav: 'projects' },
  { path: '/projects/:project/experiments', page: ExperimentsPage, nav: 'projects' },
  { path: '/projects/:project/tasks', page: ExperimentsPage, nav: 'projects' },
  { path: '/projects/:project/experiments/:task', page: ExperimentPage, nav: 'projects' },
  { path: '/projects/:project/experiments/:task/*', page: ExperimentPage, nav: 'projects' },
  { path: '/projects/:project/tasks/:task', page: ExperimentPage, nav: 'projects' },
  { path: '/projects/:project/tasks/:task/*', page: ExperimentPage, nav: 'projects' },
  { path: '/projects/:project/traces', page: TracesPage, nav: 'projects' },
  { path: '/projects/:project/traces/:trace', page: TracePage, nav: 'projects' },
  { path: '/experiments', page: ExperimentsPage, nav: 'experiments' },
  { path: '/compare', page: ComparePage, nav: 'experiments' },
  { path: '/models', page: ModelsPage, nav: 'models' },
  { path: '/projects/:project/models', page: ModelsPage, nav: 'models' },
  { path: '/projects/:project/models/:model', page: ModelPage, nav: 'models' },
  { path: '/projects/:project/models/:model/*', page: ModelPage, nav: 'models' },
  { path: '/queues', page: QueuesPage, nav: 'queues' },
  { path: '/workers', page: WorkersPage, nav: 'workers' },
  { path: '/settings', page: SettingsPage, nav: 'settings' },
];
