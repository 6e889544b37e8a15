// Create, rename and delete a project, each asking first and reporting
// its outcome. A rename keeps the project where it is (the server renames
// the last path part only; projects.move moves).

import { call } from '../api.js';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { runAction, toast } from '../components/toast.jsx';
import { label } from './projects-tree.jsx';

const parentPath = p => p.name.split('/').slice(0, -1).join('/');
const cleanName = s => s.replace(/\//g, ' ').trim();

export async function createProject(parent) {
  const name = await promptText({
    title: parent ? `New sub-project of ${label(parent)}` : 'New project',
    label: 'Name', confirm: 'Create',
  });
  if (!name || !cleanName(name)) return false;
  const full = parent ? `${parent.name}/${cleanName(name)}` : cleanName(name);
  return !!await runAction(() => call('projects.create', { name: full, description: '', system_tags: [] }), `Project "${full}" created`);
}

export async function renameProject(p) {
  const name = await promptText({ title: `Rename ${label(p)}`, label: 'New name', value: label(p), confirm: 'Rename' });
  if (!name || !cleanName(name) || cleanName(name) === label(p)) return false;
  const under = parentPath(p);
  const full = under ? `${under}/${cleanName(name)}` : cleanName(name);
  return !!await runAction(() => call('projects.update', { project: p.id, name: full }), `Renamed to "${cleanName(name)}"`);
}

export async function deleteProject(p) {
  let v;
  try {
    v = await call('projects.validate_delete', { project: p.id });
  } catch (e) {
    toast(e.message, 'error');
    return false;
  }
  const held = [];
  if (v.tasks) held.push(`${v.tasks} experiment${v.tasks === 1 ? '' : 's'}`);
  if (v.models) held.push(`${v.models} model${v.models === 1 ? '' : 's'}`);
  if (v.datasets) held.push(`${v.datasets} dataset${v.datasets === 1 ? '' : 's'}`);
  if (v.pipelines) held.push(`${v.pipelines} pipeline${v.pipelines === 1 ? '' : 's'}`);
  const body = held.length
    ? `"${p.name}" and its sub-projects hold ${held.join(', ')}; they are deleted with it, for good.`
    : `"${p.name}" and its sub-projects are empty.`;
  if (!await confirmAction({ title: 'Delete project?', body, confirm: 'Delete', danger: true })) return false;
  return !!await runAction(() => call('projects.delete', { project: p.id, force: true, delete_contents: true }), `Project "${p.name}" deleted`);
}
