// The settings page (/settings): the signed-in user's profile (name
// editable with users.update) and their workspace credentials: list,
// create (the new pair shown once, as a clearml.conf snippet) and revoke.

import { useRef, useState } from 'preact/hooks';
import { call } from '../api.js';
import { useApi } from '../hooks.js';
import { ErrorBox, Spinner } from '../components/feedback.jsx';
import { confirmAction } from '../components/dialog.jsx';
import { runAction, toast } from '../components/toast.jsx';
import { fmtAgo, fmtDate } from '../format.js';
import { confSnippet, serverAddresses } from './settings-snippet.js';
import './settings.css';

export function SettingsPage() {
  const me = useApi(() => call('users.get_current_user', {}), []);
  const user = me.data?.user;
  return (
    <div class="settings-page">
      <div class="page-head"><h1>Settings</h1></div>
      {me.error && <ErrorBox error={me.error} retry={me.reload} />}
      {!me.data && !me.error && <Spinner />}
      {user && <Profile user={user} reload={me.reload} />}
      {user && <Credentials user={user} />}
    </div>
  );
}

function Profile({ user, reload }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(user.name || '');
  const save = async e => {
    e.preventDefault();
    const n = name.trim();
    if (!n) return;
    const r = await runAction(() => call('users.update', { user: user.id, name: n }), 'Name saved');
    if (r !== undefined) { setEditing(false); reload(); }
  };
  return (
    <section class="panel panel-pad settings-section" data-testid="profile">
      <h2>Profile</h2>
      <dl class="kv">
        <dt>Name</dt>
        <dd>
          {editing
            ? (
              <form class="settings-inline" onSubmit={save}>
                <input value={name} onInput={e => setName(e.target.value)} autoFocus aria-label="Name" data-testid="profile-name-input" />
                <button class="btn btn-primary btn-small" type="submit" data-action="save-name">Save</button>
                <button class="btn btn-small" type="button" onClick={() => { setEditing(false); setName(user.name || ''); }}>Cancel</button>
              </form>
            )
            : <span class="settings-inline"><span data-testid="profile-name">{user.name || '–'}</span>
              <button class="btn btn-ghost btn-small" data-action="edit-name" onClick={() => setEditing(true)}>Edit</button></span>}
        </dd>
        {(user.given_name || user.family_name) && <><dt>Full name</dt><dd>{[user.given_name, user.family_name].filter(Boolean).join(' ')}</dd></>}
        <dt>User ID</dt><dd><code>{user.id}</code></dd>
        {user.email && <><dt>Email</dt><dd>{user.email}</dd></>}
        {user.role && <><dt>Role</dt><dd>{user.role}</dd></>}
        <dt>Workspace</dt><dd>{user.company?.name || user.company?.id || '–'}</dd>
        {user.created && <><dt>Member since</dt><dd>{fmtDate(user.created)}</dd></>}
      </dl>
    </section>
  );
}

function Credentials({ user }) {
  const list = useApi(() => call('auth.get_credentials', {}), []);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState(null); // {snippet, key}
  const [busy, setBusy] = useState(false);

  const create = async e => {
    e.preventDefault();
    setBusy(true);
    const body = label.trim() ? { label: label.trim() } : {};
    const r = await runAction(() => call('auth.create_credentials', body));
    if (r?.credentials) {
      const addr = await serverAddresses(user);
      setCreated({ key: r.credentials, snippet: confSnippet(addr, r.credentials) });
      setLabel('');
      list.reload();
    }
    setBusy(false);
  };
  const revoke = async cr => {
    const ok = await confirmAction({
      title: 'Revoke these credentials?',
      body: <>Anything using access key <code>{cr.access_key}</code>{cr.label ? ` (${cr.label})` : ''} stops working at once.</>,
      confirm: 'Revoke',
      danger: true,
    });
    if (!ok) return;
    const r = await runAction(() => call('auth.revoke_credentials', { access_key: cr.access_key }), 'Credentials revoked');
    if (r !== undefined) {
      if (created?.key.access_key === cr.access_key) setCreated(null);
      list.reload();
    }
  };
  const creds = list.data?.credentials;

  return (
    <section class="panel panel-pad settings-section" data-testid="credentials">
      <h2>Workspace credentials</h2>
      <p class="muted settings-note">Key pairs for the ClearML SDK and clearml-agent. The secret is shown once, when the pair is created.</p>
      <form class="settings-create" onSubmit={create}>
        <input value={label} onInput={e => setLabel(e.target.value)} placeholder="Label (optional), e.g. laptop" aria-label="Label" data-testid="credentials-label" maxLength={100} />
        <button class="btn btn-primary" type="submit" data-action="create-credentials" disabled={busy}>Create new credentials</button>
      </form>
      {created && <NewCredentials created={created} onClose={() => setCreated(null)} />}
      {list.error && <ErrorBox error={list.error} retry={list.reload} />}
      {!creds && !list.error && <Spinner />}
      {creds && (
        <div class="table-wrap">
          <table class="grid" data-testid="credentials-table">
            <thead><tr><th>Access key</th><th>Label</th><th>Last used</th><th>From</th><th /></tr></thead>
            <tbody>
              {creds.map(cr => (
                <tr key={cr.access_key} data-access-key={cr.access_key}>
                  <td><code>{cr.access_key}</code></td>
                  <td>{cr.label || <span class="muted">–</span>}</td>
                  <td title={fmtDate(cr.last_used)}>{cr.last_used ? fmtAgo(cr.last_used) : <span class="muted">never</span>}</td>
                  <td>{cr.last_used_from || ''}</td>
                  <td class="settings-actions"><button class="btn btn-small settings-danger" data-action="revoke" onClick={() => revoke(cr)}>Revoke</button></td>
                </tr>
              ))}
            </tbody>
          </table>
          {creds.length === 0 && <div class="empty">No credentials yet.</div>}
        </div>
      )}
    </section>
  );
}

function NewCredentials({ created, onClose }) {
  const pre = useRef(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.snippet);
      toast('Copied to the clipboard');
      return;
    } catch { /* no clipboard API outside secure contexts (plain http on a LAN name) */ }
    // Select the snippet and use the older copy command instead.
    const range = document.createRange();
    range.selectNodeContents(pre.current);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    const ok = document.execCommand && document.execCommand('copy');
    toast(ok ? 'Copied to the clipboard' : 'The browser refused the clipboard: the text is selected, copy it', ok ? 'info' : 'error');
  };
  return (
    <div class="settings-new" data-testid="new-credentials" data-access-key-new={created.key.access_key}>
      <div class="settings-new-head">
        <strong>New credentials{created.key.label ? ` "${created.key.label}"` : ''}</strong>
        <span class="spacer" />
        <button class="btn btn-small" data-action="copy-snippet" onClick={copy}>Copy</button>
        <button class="btn btn-ghost btn-small" data-action="close-snippet" onClick={onClose}>Done</button>
      </div>
      <p class="small settings-note">Paste this into <code>clearml-init</code> or into <code>~/clearml.conf</code>. The secret key is not shown again.</p>
      <pre class="code" data-testid="conf-snippet" ref={pre}>{created.snippet}</pre>
    </div>
  );
}
