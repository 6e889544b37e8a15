// The clearml.conf snippet for a new key pair. The SDK is best pointed at
// Trove's own API and file-server addresses: an administrator may read
// them with server.config (the listen addresses and the public host); the
// host is the configured public host, else the one this page was opened
// with, as Trove's configuration.json does for the ClearML web app.
// Anyone else gets this origin's /api and /files, which Trove's web
// address serves for the SDK as well.

import { call } from '../api.js';

const privileged = new Set(['admin', 'root', 'system']);

// urlOf is http://host:port for a listen address as this browser reaches it.
export function urlOf(listen, publicHost, here = location) {
  if (!listen) return '';
  const i = listen.lastIndexOf(':');
  const port = i >= 0 ? listen.slice(i + 1) : '';
  let host = publicHost || here.hostname || listen.slice(0, i).replace(/^\[|\]$/g, '');
  if (host.includes(':') && !host.startsWith('[')) host = `[${host}]`;
  return `${here.protocol === 'https:' ? 'https' : 'http'}://${host}${port ? ':' + port : ''}`;
}

// serverAddresses gives {web, api, files}.
export async function serverAddresses(user, here = location) {
  const web = here.origin;
  if (privileged.has(user?.role)) {
    try {
      const c = await call('server.config', {});
      return {
        web,
        api: urlOf(c.api_addr, c.public_host, here),
        files: c.files_addr ? urlOf(c.files_addr, c.public_host, here) : '',
      };
    } catch { /* fall back below */ }
  }
  return { web, api: `${web}/api`, files: `${web}/files` };
}

// confSnippet is the api section of clearml.conf, in the shape clearml-init reads.
export function confSnippet(addr, key) {
  const lines = [
    'api {',
    `    web_server: ${addr.web}`,
    `    api_server: ${addr.api}`,
  ];
  if (addr.files) lines.push(`    files_server: ${addr.files}`);
  if (key.label) lines.push(`    # ${key.label}`);
  lines.push(
    '    credentials {',
    `        "access_key" = "${key.access_key}"`,
    `        "secret_key" = "${key.secret_key}"`,
    '    }',
    '}',
  );
  return lines.join('\n') + '\n';
}
