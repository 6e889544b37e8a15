// Waiting assertions for the cases: each waits up to a time limit and
// fails with a message naming what was expected and what was found.

export const WAIT_MS = Number(process.env.TROVE_UI_E2E_WAIT_MS || 15000);

// visible waits for the first element of locator to be shown.
export async function visible(locator, what, timeout = WAIT_MS) {
  try {
    await locator.first().waitFor({state: 'visible', timeout});
  } catch {
    throw new Error(`${what}: nothing visible matches ${locator} within ${timeout / 1000} s`);
  }
  return locator.first();
}

// eventually polls check() until it returns {ok: true}; else fails with
// the last {found} it reported.
export async function eventually(check, what, timeout = WAIT_MS) {
  const end = Date.now() + timeout;
  let last = {ok: false, found: 'nothing checked'};
  for (;;) {
    try {
      last = await check();
    } catch (err) {
      last = {ok: false, found: `error: ${String(err.message || err).split('\n')[0]}`};
    }
    if (last.ok) return last;
    if (Date.now() > end) break;
    await new Promise(r => setTimeout(r, 250));
  }
  throw new Error(`${what}: not so within ${timeout / 1000} s; found ${typeof last.found === 'string' ? last.found : JSON.stringify(last.found)}`);
}

// containsText waits until locator's first element's text holds every
// string in wanted.
export async function containsText(locator, wanted, what, timeout = WAIT_MS) {
  await visible(locator, what, timeout);
  return eventually(async () => {
    const text = (await locator.first().innerText()).replace(/\s+/g, ' ');
    const missing = wanted.filter(w => !text.includes(String(w)));
    return {ok: missing.length === 0, found: `missing ${JSON.stringify(missing)} in "${text.slice(0, 300)}"`};
  }, what, timeout);
}

// attribute waits until locator's first element has attribute name equal
// to value.
export async function attribute(locator, name, value, what, timeout = WAIT_MS) {
  await visible(locator, what, timeout);
  return eventually(async () => {
    const got = await locator.first().getAttribute(name);
    return {ok: got === value, found: `${name}=${JSON.stringify(got)}`};
  }, what, timeout);
}

// waitPath waits until the page's path (and query) satisfies test.
export async function waitPath(page, test, what, timeout = WAIT_MS) {
  return eventually(async () => {
    const u = new URL(page.url());
    return {ok: test(u), found: u.pathname + u.search};
  }, what, timeout);
}

export function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
