// The models tab: the experiment's input and output models, each linked to
// its model page, with framework, state and a download of its file.

import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Link } from '../router.jsx';
import { Loaded } from '../components/feedback.jsx';
import { fmtAgo, fmtDate } from '../format.js';
import { DownloadLink, useFileMatcher } from './experiment-artifacts.jsx';

const FIELDS = ['id', 'name', 'framework', 'uri', 'ready', 'created', 'project.name', 'tags', 'system_tags'];

function ModelTable({ title, refs, byId, match, item, kind }) {
  return (
    <div class="panel">
      <div class="panel-pad xp-section-head"><h3>{title}</h3><span class="muted small">{refs.length}</span></div>
      {refs.length === 0 ? <p class="muted panel-pad">None.</p> : (
        <table class="grid" data-testid={`${kind}-models`}>
          <thead><tr><th>Name</th><th>Role</th><th>Framework</th><th>State</th><th>Created</th><th /></tr></thead>
          <tbody>
            {refs.map(r => {
              const id = r.model?.id || r.model;
              const m = byId[id] || {};
              const project = m.project?.id || '*';
              return (
                <tr key={kind + id + r.name} data-testid="model" data-model-id={id} data-kind={kind} class={item === id ? 'selected' : undefined}>
                  <td>{m.id || r.model?.name
                    ? <Link href={`/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(id)}`}>{m.name || r.model?.name || id}</Link>
                    : <span class="muted" title={id}>deleted model</span>}</td>
                  <td class="muted">{r.name}</td>
                  <td>{m.framework || ''}</td>
                  <td>{m.id ? (m.ready ? <span class="badge badge-violet">published</span> : <span class="badge badge-grey">draft</span>) : ''}</td>
                  <td title={fmtDate(m.created)}>{fmtAgo(m.created)}</td>
                  <td>{m.uri && <DownloadLink uri={m.uri} match={match} />}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function ModelsTab({ task, item }) {
  const input = task.models?.input || [];
  const output = task.models?.output || [];
  const ids = [...new Set([...input, ...output].map(r => r.model?.id || r.model).filter(Boolean))];
  const match = useFileMatcher();
  const state = useApi(async signal => {
    if (!ids.length) return [];
    const r = await call('models.get_all_ex', { id: ids, only_fields: FIELDS, include_subprojects: true }, { signal });
    return r.models || [];
  }, [ids.join(','), task.last_change]);
  return (
    <Loaded state={state} what="experiment" id={task.id}>
      {models => {
        const byId = Object.fromEntries(models.map(m => [m.id, m]));
        return (
          <div class="xp-stack" data-testid="models">
            <ModelTable title="Input models" refs={input} byId={byId} match={match} item={item} kind="input" />
            <ModelTable title="Output models" refs={output} byId={byId} match={match} item={item} kind="output" />
          </div>
        );
      }}
    </Loaded>
  );
}
