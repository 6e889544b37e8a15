// The one way the UI talks to Trove: POST /api/<operation> with a JSON
// body, the same public API the SDK and the ClearML web app call. The
// session is the clearml_token_basic cookie, sent by the browser.

export class ApiError extends Error {
  constructor(op, status, code, subcode, message) {
    super(message || `${op} failed (${status})`);
    this.op = op;
    this.status = status;
    this.code = code;
    this.subcode = subcode;
  }
}

// onUnauthorized is set by the session module: an expired or missing
// session sends the user to the login page.
let onUnauthorized = () => {};
export function setUnauthorizedHandler(fn) { onUnauthorized = fn; }

// The API version the UI speaks; the server answers with its own rules for it.
export const API_VERSION = '2.31';

// call runs one operation and returns its data, or throws ApiError.
export async function call(op, body = {}, { signal, headers } = {}) {
  let res;
  try {
    res = await fetch(`/api/${op}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Clearml-Client': 'Trove-UI', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(op, 0, 0, 0, `${op}: the server cannot be reached (${e.message})`);
  }
  let env = null;
  try { env = await res.json(); } catch { /* not an envelope */ }
  const meta = env?.meta || {};
  if (res.ok && env) return env.data;
  if (res.status === 401 && op !== 'auth.login') onUnauthorized();
  throw new ApiError(op, res.status, meta.result_code, meta.result_subcode,
    meta.result_msg ? `${op}: ${meta.result_msg}` : `${op} failed (HTTP ${res.status})`);
}

// login asks for a session with a key pair or a username and password
// (HTTP Basic); the server sets the cookie.
export async function login(user, secret) {
  const auth = 'Basic ' + btoa(unescape(encodeURIComponent(`${user}:${secret}`)));
  return call('auth.login', {}, { headers: { Authorization: auth } });
}

export async function logout() {
  try { await call('auth.logout', {}); } catch { /* already gone */ }
}
