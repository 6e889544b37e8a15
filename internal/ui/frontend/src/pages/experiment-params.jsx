// The configuration tab: hyper-parameters by section and configuration
// objects. A draft (status created) can be edited, through
// tasks.edit_hyper_params and tasks.edit_configuration as the ClearML web
// app does; any other status shows them read-only.

import { useEffect, useRef, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { Loaded } from '../components/feedback.jsx';
import { confirmAction, promptText } from '../components/dialog.jsx';
import { runAction } from '../components/toast.jsx';

// sectionsOf turns hyperparams {section: {name: {...}}} into sorted
// [{name, params: [...]}], sections in their stored order, params by name.
export function sectionsOf(hyperparams) {
  return Object.entries(hyperparams || {}).map(([name, params]) => ({
    name,
    params: Object.values(params || {}).sort((a, b) => (a.name || '').localeCompare(b.name || '')),
  }));
}

// useFocus scrolls the element a path points at into view once.
function useFocus(active) {
  const ref = useRef(null);
  useEffect(() => { if (active && ref.current) ref.current.scrollIntoView({ block: 'start' }); }, [active]);
  return ref;
}

function SectionView({ task, section, editable, focused, reload, startOpen = false }) {
  const [rows, setRows] = useState(null); // null: not editing
  const [saving, setSaving] = useState(false);
  const ref = useFocus(focused);
  useEffect(() => { if (startOpen) setRows(section.params.length ? section.params.map(p => ({ ...p })) : [{ name: '', value: '', type: '', description: '' }]); }, [startOpen]);
  const edit = () => setRows(section.params.map(p => ({ ...p })));
  const set = (i, k, v) => setRows(rs => rs.map((r, j) => (j === i ? { ...r, [k]: v } : r)));
  const save = async () => {
    const kept = rows.filter(r => r.name.trim());
    setSaving(true);
    const op = kept.length
      ? () => call('tasks.edit_hyper_params', {
        task: task.id, replace_hyperparams: 'section',
        hyperparams: kept.map(r => ({ section: section.name, name: r.name.trim(), value: String(r.value ?? ''), type: r.type || undefined, description: r.description || undefined })),
      })
      : () => call('tasks.delete_hyper_params', { task: task.id, hyperparams: [{ section: section.name }] });
    const ok = await runAction(op, `Section ${section.name} saved`);
    setSaving(false);
    if (ok) { setRows(null); reload(); }
  };
  return (
    <div class={focused ? 'panel xp-section xp-focus' : 'panel xp-section'} ref={ref} data-section={section.name}>
      <div class="xp-section-head panel-pad">
        <h3>{section.name}</h3>
        <span class="muted small">{section.params.length} parameter{section.params.length === 1 ? '' : 's'}</span>
        <span class="spacer" />
        {editable && !rows && <button class="btn btn-small" data-action="edit-params" onClick={edit}>Edit</button>}
      </div>
      {rows ? (
        <div class="panel-pad xp-edit">
          <table class="grid xp-edit-table">
            <thead><tr><th>Name</th><th>Value</th><th>Type</th><th>Description</th><th /></tr></thead>
            <tbody>
              {rows.map((r, i) => (
                <tr key={i}>
                  <td><input value={r.name} onInput={e => set(i, 'name', e.target.value)} aria-label="Name" data-testid="param-name-input" /></td>
                  <td><input value={r.value} onInput={e => set(i, 'value', e.target.value)} aria-label="Value" data-testid="param-value-input" /></td>
                  <td><input value={r.type || ''} onInput={e => set(i, 'type', e.target.value)} aria-label="Type" class="xp-narrow" /></td>
                  <td><input value={r.description || ''} onInput={e => set(i, 'description', e.target.value)} aria-label="Description" /></td>
                  <td><button class="btn btn-ghost btn-small" title="Remove" onClick={() => setRows(rs => rs.filter((_, j) => j !== i))}>×</button></td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="toolbar xp-edit-actions">
            <button class="btn btn-small" onClick={() => setRows(rs => [...rs, { name: '', value: '', type: '', description: '' }])}>+ parameter</button>
            <span class="spacer" />
            <button class="btn btn-small" onClick={() => setRows(null)} disabled={saving}>Cancel</button>
            <button class="btn btn-small btn-primary" data-action="save-params" onClick={save} disabled={saving}>Save</button>
          </div>
        </div>
      ) : section.params.length === 0 ? <p class="muted panel-pad">Empty section.</p> : (
        <table class="grid">
          <tbody>
            {section.params.map(p => (
              <tr key={p.name} data-testid="hyper-param" data-section={section.name} data-name={p.name}>
                <td class="xp-pname" title={p.description || undefined}>{p.name}</td>
                <td class="xp-pvalue" data-testid="param-value">{p.value === '' ? <span class="muted">(empty)</span> : p.value}</td>
                <td class="muted small xp-ptype">{p.type}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function ConfigView({ task, config, editable, focused, reload }) {
  const [text, setText] = useState(null); // null: not editing
  const ref = useFocus(focused);
  const save = async () => {
    const ok = await runAction(() => call('tasks.edit_configuration', {
      task: task.id, configuration: [{ name: config.name, type: config.type || undefined, description: config.description || undefined, value: text }],
    }), `${config.name} saved`);
    if (ok) { setText(null); reload(); }
  };
  const remove = async () => {
    if (!await confirmAction({ title: 'Delete configuration object?', body: `“${config.name}” is removed from this draft.`, confirm: 'Delete', danger: true })) return;
    if (await runAction(() => call('tasks.delete_configuration', { task: task.id, configuration: [config.name] }), `${config.name} deleted`)) reload();
  };
  return (
    <div class={focused ? 'panel xp-section xp-focus' : 'panel xp-section'} ref={ref} data-config={config.name} data-testid="config-object">
      <div class="xp-section-head panel-pad">
        <h3>{config.name}</h3>
        {config.type && <span class="badge badge-grey">{config.type}</span>}
        {config.description && <span class="muted small">{config.description}</span>}
        <span class="spacer" />
        {editable && text === null && <>
          <button class="btn btn-small" data-action="edit-config" onClick={() => setText(config.value || '')}>Edit</button>
          <button class="btn btn-small btn-ghost" data-action="delete-config" onClick={remove}>Delete</button>
        </>}
      </div>
      <div class="panel-pad xp-config-body">
        {text !== null ? (
          <>
            <textarea rows={Math.min(24, Math.max(6, text.split('\n').length + 1))} value={text} onInput={e => setText(e.target.value)} data-testid="config-input" />
            <div class="toolbar xp-edit-actions">
              <span class="spacer" />
              <button class="btn btn-small" onClick={() => setText(null)}>Cancel</button>
              <button class="btn btn-small btn-primary" data-action="save-config" onClick={save}>Save</button>
            </div>
          </>
        ) : config.value ? <pre class="code xp-code">{config.value}</pre> : <p class="muted">Empty.</p>}
      </div>
    </div>
  );
}

export function ParamsTab({ task, item, reload }) {
  const editable = task.status === 'created';
  const [newSection, setNewSection] = useState('');
  const configs = useApi(signal => call('tasks.get_configurations', { tasks: [task.id] }, { signal }), [task.id, task.last_change]);
  const sections = sectionsOf(task.hyperparams);
  if (newSection && !sections.some(s => s.name === newSection)) sections.push({ name: newSection, params: [] });
  const focusSection = item.startsWith('section:') ? item.slice(8) : '';
  const focusConfig = item.startsWith('config:') ? item.slice(7) : '';
  const reloadAll = () => { reload(); configs.reload(); };
  const addSection = async () => {
    const name = await promptText({ title: 'New hyper-parameter section', label: 'Section name', value: 'General', confirm: 'Add' });
    if (name) setNewSection(name);
  };
  const addConfig = async () => {
    const name = await promptText({ title: 'New configuration object', label: 'Name', confirm: 'Add' });
    if (!name) return;
    if (await runAction(() => call('tasks.edit_configuration', { task: task.id, configuration: [{ name, value: '' }] }), `${name} added`)) reloadAll();
  };
  return (
    <div class="xp-stack">
      {!editable && <p class="muted small xp-note">Read-only: only a draft can be edited. Clone or reset the experiment to change its configuration.</p>}
      <div class="xp-group-head">
        <h2>Hyper-parameters</h2>
        {editable && <button class="btn btn-small" data-action="add-section" onClick={addSection}>+ section</button>}
      </div>
      <div data-testid="hyper-params" class="xp-stack">
        {sections.length === 0 && <p class="muted empty">No hyper-parameters.</p>}
        {sections.map(s => (
          <SectionView key={s.name} task={task} section={s} editable={editable} focused={s.name === focusSection}
            startOpen={s.name === newSection && s.params.length === 0} reload={() => { setNewSection(''); reloadAll(); }} />
        ))}
      </div>
      <div class="xp-group-head">
        <h2>Configuration objects</h2>
        {editable && <button class="btn btn-small" data-action="add-config" onClick={addConfig}>+ object</button>}
      </div>
      <Loaded state={configs} what="experiment" id={task.id}>
        {d => {
          const list = ((d.configurations || [])[0]?.configuration || []).slice().sort((a, b) => a.name.localeCompare(b.name));
          if (!list.length) return <p class="muted empty">No configuration objects.</p>;
          return <div class="xp-stack" data-testid="configuration">{list.map(c => (
            <ConfigView key={c.name} task={task} config={c} editable={editable} focused={c.name === focusConfig} reload={reloadAll} />
          ))}</div>;
        }}
      </Loaded>
    </div>
  );
}
