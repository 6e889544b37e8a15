// A freshly started bin/trove for the UI suite and the budget: its own
// data dir, loopback ports, the database the caller names, its log in a
// file; and a small client of its API (HTTP Basic with the admin key).

import {spawn} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function randomKeys(prefix) {
  const rnd = () => Math.random().toString(36).slice(2);
  return {
    key: (prefix + rnd() + rnd()).toUpperCase().replace(/[^A-Z0-9]/g, 'X').slice(0, 24).padEnd(24, 'X'),
    secret: `${prefix.toLowerCase()}-secret-${rnd()}${rnd()}${rnd()}`,
  };
}

// startTrove runs `trove serve` on port (API), port+1 (files), port+2
// (web) and resolves once the API and the web address answer. users
// ({name: {id, key, secret, role}}) are more users with access keys,
// given to trove in its config file.
export async function startTrove({bin, port, db, outDir, keys, users = {}}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-ui-e2e-'));
  const configPath = path.join(dataDir, 'trove.yaml');
  fs.writeFileSync(configPath, Object.keys(users).length === 0 ? 'users: []\n' : 'users:\n' + Object.entries(users).map(([name, u]) =>
    `  - {id: ${JSON.stringify(u.id)}, name: ${JSON.stringify(name)}, access_key: ${JSON.stringify(u.key)}, secret_key: ${JSON.stringify(u.secret)}, role: ${JSON.stringify(u.role)}}\n`).join(''));
  const api = `http://127.0.0.1:${port}`;
  const files = `http://127.0.0.1:${port + 1}`;
  const web = `http://127.0.0.1:${port + 2}`;
  const args = ['serve', '--config', configPath, '--data-dir', dataDir, '--api-addr', `127.0.0.1:${port}`, '--files-addr', `127.0.0.1:${port + 1}`,
    '--web-addr', `127.0.0.1:${port + 2}`, '--log-level', 'warn'];
  if (db) args.push('--db', db);
  const logPath = path.join(outDir, 'trove.log');
  const log = fs.openSync(logPath, 'w');
  const proc = spawn(bin, args, {
    env: {...process.env, TROVE_ADMIN_KEY: keys.key, TROVE_ADMIN_SECRET: keys.secret},
    stdio: ['ignore', log, log],
  });
  let exited = null;
  proc.on('exit', (code, signal) => { exited = signal || code; });
  // Whatever ends this process (an uncaught error, a closed pipe), the
  // server goes with it.
  process.on('exit', () => { if (exited === null) proc.kill('SIGKILL'); });
  const stop = async () => {
    if (exited === null) {
      const gone = new Promise(r => proc.once('exit', r));
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10000);
      await gone;
      clearTimeout(t);
    }
    fs.rmSync(dataDir, {recursive: true, force: true});
  };
  try {
    await waitUp(`${api}/debug.ping`, () => exited, logPath);
    await waitUp(`${web}/`, () => exited, logPath);
  } catch (err) {
    await stop();
    throw err;
  }
  return {api, files, web, ...keys, users, dataDir, logPath, pid: proc.pid, stop, exited: () => exited};
}

async function waitUp(url, exited, logPath, ms = 60000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (exited() !== null) {
      throw new Error(`trove exited (${exited()}) before ${url} answered; its log (${logPath}):\n${tail(logPath)}`);
    }
    try {
      const r = await fetch(url, {signal: AbortSignal.timeout(2000)});
      if (r.ok) return;
    } catch { /* not up yet */ }
    await new Promise(r => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${ms} ms; trove's log (${logPath}):\n${tail(logPath)}`);
}

export function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

// apiClient calls operations on the API port with the admin key, the
// way the SDK does; a non-200 answer throws with the server's message.
export function apiClient({api, key, secret}) {
  const auth = 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64');
  return async function call(op, body = {}) {
    const r = await fetch(`${api}/${op}`, {
      method: 'POST', body: JSON.stringify(body),
      headers: {Authorization: auth, 'Content-Type': 'application/json'},
      signal: AbortSignal.timeout(60000),
    });
    const text = await r.text();
    let env;
    try { env = JSON.parse(text); } catch { throw new Error(`${op}: HTTP ${r.status}, not JSON: ${text.slice(0, 200)}`); }
    if (r.status !== 200) throw new Error(`${op}: HTTP ${r.status} ${env.meta?.result_subcode ?? ''} ${env.meta?.result_msg ?? ''}`);
    return env.data;
  };
}

// sessionToken logs in with the key pair and returns the session token
// the web app's cookie (clearml_token_basic) holds; expirationSec makes a
// short-lived one.
export async function sessionToken({api, key, secret}, expirationSec) {
  const r = await fetch(`${api}/auth.login`, {
    method: 'POST', body: JSON.stringify(expirationSec ? {expiration_sec: expirationSec} : {}),
    headers: {Authorization: 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64')},
  });
  if (r.status !== 200) throw new Error(`auth.login: HTTP ${r.status}`);
  return (await r.json()).data.token;
}

// addEvents reports events the way the SDK does: events.add_batch with
// one JSON event per line.
export async function addEvents({api, key, secret}, lines) {
  const r = await fetch(`${api}/events.add_batch`, {
    method: 'POST', body: lines.map(e => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n'),
    headers: {Authorization: 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64'), 'Content-Type': 'application/json-lines'},
  });
  const text = await r.text();
  if (r.status !== 200) {
    let msg = text.slice(0, 300);
    try { msg = JSON.parse(text).meta.result_msg; } catch { /* not an envelope */ }
    throw new Error(`events.add_batch: HTTP ${r.status}: ${msg}`);
  }
}
