"""A first start, as a new user meets it: trove prints a key pair and a
clearml.conf snippet, and the real ``clearml-init`` accepts that snippet.

``clearml-init`` reads pasted lines until one that is a lone ``}``, then
insists on three distinct server URLs and logs in with the key pair. This
test starts its own server on a fresh SQLite data dir (the session server
has a configured admin key, so it never generates one; the snippet does not
depend on the backend) with every port chosen by the system, so the URLs
must carry the real ports.
"""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from conftest import REPO_ROOT

START_TIMEOUT = 30


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CLEARML_", "TRAINS_", "TROVE_")) and k != "JPY_PARENT_PID"}
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    return env


def _read_snippet(proc: subprocess.Popen) -> str:
    """The lines from ``api {`` to the lone ``}`` of the server's stdout."""
    lines: "queue.Queue[str]" = queue.Queue()

    def pump() -> None:
        for line in proc.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    seen, snippet = [], None
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if line.rstrip() == "api {":
            snippet = []
        if snippet is not None:
            snippet.append(line)
            if line.rstrip() == "}":
                return "".join(snippet)
    raise AssertionError("trove printed no clearml.conf snippet; stdout so far:\n" + "".join(seen))


def test_clearml_init_accepts_the_printed_snippet(tmp_path):
    binary = Path(os.environ.get("TROVE_BIN") or REPO_ROOT / "bin" / "trove")
    log = open(tmp_path / "trove.log", "wb")
    proc = subprocess.Popen(
        [str(binary), "serve", "--data-dir", str(tmp_path / "data"),
         "--api-addr", "127.0.0.1:0", "--files-addr", "127.0.0.1:0", "--web-addr", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log, text=True,
        env=_clean_env(), start_new_session=True,
    )
    try:
        snippet = _read_snippet(proc)
        urls = dict(re.findall(r"^\s+(web|api|files)_server: (\S+)$", snippet, re.M))
        keys = dict(re.findall(r'"(access|secret)_key" = "([^"]+)"', snippet))
        assert set(urls) == {"web", "api", "files"} and set(keys) == {"access", "secret"}, snippet
        assert len(set(urls.values())) == 3, urls
        assert not any(u.endswith(":0") for u in urls.values()), urls

        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(urls["web"] + "/", timeout=10) as resp:
            assert resp.status == 200

        conf = tmp_path / "clearml.conf"
        init = Path(sys.executable).parent / "clearml-init"
        done = subprocess.run(
            [str(init), "--file", str(conf)], input=snippet, capture_output=True, text=True,
            env=_clean_env(), cwd=str(tmp_path), timeout=180,
        )
        out = done.stdout + done.stderr
        assert done.returncode == 0, out
        assert "ClearML setup completed successfully" in out, out
        assert "Credentials verified" in out, out
        written = conf.read_text()
        for name, url in urls.items():
            assert f"{name}_server: {url}" in written, written
        assert keys["access"] in written and keys["secret"] in written
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()
