// The login page: an access key and secret, or a username and password
// where the server has configured users. The server sets the
// clearml_token_basic cookie, which the ClearML web app shares.

import { useEffect, useState } from 'preact/hooks';
import { call, login } from '../api.js';
import { navigate, queryParams } from '../router.jsx';

export function LoginPage({ onLogin }) {
  const [mode, setMode] = useState('key');
  const [basic, setBasic] = useState(false);
  const [user, setUser] = useState('');
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    call('login.supported_modes', {}).then(d => {
      if (d?.basic?.enabled) { setBasic(true); setMode('user'); }
    }).catch(() => {});
  }, []);

  const submit = async e => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      await login(user.trim(), secret);
      await onLogin();
      const next = queryParams().next;
      const ok = next && next.startsWith('/') && !next.startsWith('//');
      // /mlflow/ is the MLflow UI (--mlflow-ui-dir): another app, loaded whole.
      if (ok && next.startsWith('/mlflow/')) location.replace(next);
      else navigate(ok ? next : '/projects', { replace: true });
    } catch (err) {
      setError(err.status === 401 ? (mode === 'key' ? 'Wrong access key or secret key.' : 'Wrong username or password.') : err.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="login">
      <form class="login-card" onSubmit={submit}>
        <div class="login-brand">
          <svg viewBox="0 0 32 32" width="36" height="36" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#1f6feb" /><path d="M7 11h18v4H18v12h-4V15H7z" fill="#fff" /></svg>
          <h1>Trove</h1>
        </div>
        {basic && (
          <div class="tabs tabs-small" role="tablist">
            <button type="button" role="tab" class={mode === 'user' ? 'tab active' : 'tab'} onClick={() => setMode('user')}>Username</button>
            <button type="button" role="tab" class={mode === 'key' ? 'tab active' : 'tab'} onClick={() => setMode('key')}>Access key</button>
          </div>
        )}
        <label class="field">{mode === 'key' ? 'Access key' : 'Username'}
          <input name="user" autoComplete="username" value={user} onInput={e => setUser(e.target.value)} required autoFocus />
        </label>
        <label class="field">{mode === 'key' ? 'Secret key' : 'Password'}
          <input name="secret" type="password" autoComplete="current-password" value={secret} onInput={e => setSecret(e.target.value)} required />
        </label>
        {error && <div class="error-box" role="alert">{error}</div>}
        <button class="btn btn-primary btn-block" type="submit" disabled={busy}>{busy ? 'Logging in…' : 'Log in'}</button>
        <p class="muted small">Trove prints a key pair when it first starts; <code>trove credentials create</code> makes more.</p>
      </form>
    </div>
  );
}
