// Trove's web UI: a client of Trove's public API, embedded in the binary.

import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { call, logout, setUnauthorizedHandler } from './api.js';
import { match, navigate, useLocation } from './router.jsx';
import { routes } from './routes.jsx';
import { Layout } from './layout.jsx';
import { LoginPage } from './pages/login.jsx';
import { NotFound, Spinner, ErrorBox } from './components/feedback.jsx';

function toLogin() {
  if (location.pathname === '/login') return;
  const next = location.pathname + location.search;
  navigate('/login?next=' + encodeURIComponent(next), { replace: true });
}
setUnauthorizedHandler(toLogin);

function App() {
  const loc = useLocation();
  const [user, setUser] = useState(undefined); // undefined: not known yet; null: logged out
  const [error, setError] = useState(null);

  const loadUser = () => call('users.get_current_user', {})
    .then(d => { setUser(d.user || d); setError(null); })
    .catch(e => { if (e.status === 401) { setUser(null); toLogin(); } else setError(e); });

  useEffect(() => { if (loc.path !== '/login') loadUser(); }, [loc.path === '/login']);
  // The root is the projects page: moved there after rendering (a
  // navigation during a render would not re-render this component).
  const atRoot = loc.path === '/' || loc.path === '';
  useEffect(() => { if (atRoot) navigate('/projects', { replace: true }); }, [atRoot]);

  if (loc.path === '/login') return <LoginPage onLogin={loadUser} />;
  if (atRoot) return <Spinner />;
  if (error) return <div class="page"><ErrorBox error={error} retry={loadUser} /></div>;
  if (!user) return <Spinner />;

  const onLogout = async () => { await logout(); setUser(null); navigate('/login', { replace: true }); };
  for (const r of routes) {
    const params = match(r.path, loc.path);
    if (params) {
      const Page = r.page;
      return <Layout nav={r.nav} user={user} onLogout={onLogout}><Page {...params} search={loc.search} user={user} /></Layout>;
    }
  }
  return <Layout user={user} onLogout={onLogout}><NotFound /></Layout>;
}

render(<App />, document.getElementById('app'));
