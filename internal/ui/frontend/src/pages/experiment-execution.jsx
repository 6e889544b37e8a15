// The execution tab: where the code came from (repository, branch,
// commit, entry point), its uncommitted changes, the packages it ran
// with, its container and where its outputs go.

import { Fragment } from 'preact';

function Field({ label, value, mono }) {
  const v = value === undefined || value === null ? '' : String(value);
  return <><dt>{label}</dt><dd>{v ? (mono ? <code>{v}</code> : v) : <span class="muted">—</span>}</dd></>;
}

function CodeBlock({ text, empty, testid }) {
  if (!text || !String(text).trim()) return <p class="muted">{empty}</p>;
  return <pre class="code xp-code" data-testid={testid}>{text}</pre>;
}

export function ExecutionTab({ task: t }) {
  const s = t.script || {};
  const req = s.requirements || {};
  const c = t.container || {};
  const noRepo = !s.repository;
  return (
    <div class="xp-stack">
      <div class="panel panel-pad">
        <h3>Source</h3>
        <dl class="kv" data-testid="script">
          <Field label="Repository" value={s.repository} mono />
          <Field label="Branch" value={s.branch} mono />
          <Field label="Commit" value={s.version_num} mono />
          {s.tag && <Field label="Tag" value={s.tag} mono />}
          <Field label="Entry point" value={s.entry_point} mono />
          <Field label="Working directory" value={s.working_dir} mono />
          {s.binary && <Field label="Binary" value={s.binary} mono />}
        </dl>
      </div>
      <div class="panel panel-pad">
        <h3>{noRepo && s.diff ? 'Script (stored in full: no repository)' : 'Uncommitted changes'}</h3>
        <CodeBlock text={s.diff} empty="No uncommitted changes." testid="diff" />
      </div>
      <div class="panel panel-pad">
        <h3>Installed packages</h3>
        {['pip', 'conda', 'org_pip', 'org_conda'].filter(k => req[k]).map(k => (
          <Fragment key={k}>
            {Object.keys(req).filter(x => req[x]).length > 1 && <h4 class="muted small">{k}</h4>}
            <CodeBlock text={Array.isArray(req[k]) ? req[k].join('\n') : req[k]} testid="requirements" />
          </Fragment>
        ))}
        {!['pip', 'conda', 'org_pip', 'org_conda'].some(k => req[k]) && <p class="muted">No packages recorded.</p>}
      </div>
      <div class="panel panel-pad">
        <h3>Container</h3>
        <dl class="kv" data-testid="container">
          <Field label="Image" value={c.image} mono />
          <Field label="Arguments" value={c.arguments} mono />
        </dl>
        {c.setup_shell_script && <><h4 class="muted small">Setup shell script</h4><CodeBlock text={c.setup_shell_script} /></>}
      </div>
      <div class="panel panel-pad">
        <h3>Output</h3>
        <dl class="kv">
          <Field label="Destination" value={t.output?.destination} mono />
          {t.output?.error && <Field label="Error" value={t.output.error} />}
          {t.execution?.queue && <Field label="Queue" value={t.execution.queue.name || t.execution.queue.id} />}
        </dl>
      </div>
    </div>
  );
}
