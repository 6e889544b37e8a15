"""Harness for Trove's end-to-end tests.

One trove server per pytest session (started lazily by the ``trove`` fixture):
fresh ports, a fresh data dir, an admin key/secret generated for the run, and
the database named by ``TROVE_E2E_DB`` (empty: SQLite in the data dir; a
``postgres://`` URL: that database, which the runner creates fresh).

The ``clearml_env`` fixture writes a ``clearml.conf`` for that server and puts
the SDK's environment variables into ``os.environ``, so both the in-process
``api`` client and SDK subprocesses started with ``run_sdk`` talk to it.

Environment knobs (all optional):
    TROVE_BIN                   server binary (default <repo>/bin/trove)
    TROVE_E2E_DB                database URL for trove's --db (default: SQLite)
    TROVE_E2E_BACKEND           label shown in reports (sqlite/postgres)
    TROVE_E2E_STARTUP_TIMEOUT   seconds to wait for /debug.ping (default 30)
"""

from __future__ import annotations

import atexit
import json
import os
import re
import secrets
import signal
import socket
import string
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, Optional

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
STARTUP_TIMEOUT = float(os.environ.get("TROVE_E2E_STARTUP_TIMEOUT", "30"))
LOG_TAIL_CHARS = 30_000


def _scrub_sdk_environment() -> None:
    """Drop inherited ClearML settings before any test module imports clearml.

    Some are read at import time (e.g. CLEARML_OFFLINE_MODE), and a stray
    CLEARML_NO_DEFAULT_SERVER, CLEARML_AUTH_TOKEN or TRAINS_* variable from the
    developer's shell would point the SDK elsewhere.
    """
    for key in list(os.environ):
        if key.startswith(("CLEARML_", "TRAINS_")):
            del os.environ[key]
    # Never send loopback traffic through a proxy.
    for key in ("NO_PROXY", "no_proxy"):
        hosts = [h for h in os.environ.get(key, "").split(",") if h]
        for h in ("127.0.0.1", "localhost"):
            if h not in hosts:
                hosts.append(h)
        os.environ[key] = ",".join(hosts)


_scrub_sdk_environment()

_NO_PROXY_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _random_key(n: int = 24) -> str:
    alphabet = string.ascii_uppercase + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(n))


class TroveServer:
    """A ``bin/trove serve`` process on loopback, with its log in a file."""

    def __init__(self, binary: Path, workdir: Path, db_url: str, backend: str) -> None:
        self.binary = binary
        self.workdir = workdir
        self.db_url = db_url
        self.backend = backend
        self.data_dir = workdir / "data"
        self.log_path = workdir / "trove.log"
        self.access_key = "E2E" + _random_key(21)
        self.secret_key = secrets.token_urlsafe(36)
        self.api_port = 0
        self.files_port = 0
        self.proc: Optional[subprocess.Popen] = None
        self.ready = False
        self.exit_code_before_stop: Optional[int] = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def files_url(self) -> str:
        return f"http://127.0.0.1:{self.files_port}"

    def command(self) -> list:
        cmd = [
            str(self.binary), "serve",
            "--api-addr", f"127.0.0.1:{self.api_port}",
            "--files-addr", f"127.0.0.1:{self.files_port}",
            # the web address is not used by the SDK: any free port
            "--web-addr", "127.0.0.1:0",
            "--data-dir", str(self.data_dir),
        ]
        if self.db_url:
            cmd += ["--db", self.db_url]
        return cmd

    def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        env = dict(os.environ)
        env["TROVE_ADMIN_KEY"] = self.access_key
        env["TROVE_ADMIN_SECRET"] = self.secret_key
        last_error = ""
        for attempt in range(3):  # ports are picked then released: retry on a race
            self.api_port, self.files_port = _free_port(), _free_port()
            while self.files_port == self.api_port:
                self.files_port = _free_port()
            with open(self.log_path, "ab") as log:
                log.write(f"### e2e: starting (attempt {attempt + 1}): {' '.join(self.command())}\n".encode())
                log.flush()
                self.proc = subprocess.Popen(
                    self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                    env=env, cwd=str(self.workdir), start_new_session=True,
                )
            try:
                self._wait_ready()
                self.ready = True
                return
            except RuntimeError as exc:
                last_error = str(exc)
                self.stop()
                if "address already in use" not in self.log_text().lower():
                    break
        raise RuntimeError(last_error)

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        url = f"{self.api_url}/debug.ping"
        last = "no answer"
        while True:
            rc = self.proc.poll()
            if rc is not None:
                raise RuntimeError(
                    f"trove exited with code {rc} before becoming ready; log {self.log_path}:\n"
                    + self.log_text()[-LOG_TAIL_CHARS:]
                )
            try:
                with _NO_PROXY_OPENER.open(url, timeout=2) as resp:
                    if resp.status == 200:
                        return
                    last = f"HTTP {resp.status}"
            except urllib.error.HTTPError as exc:
                last = f"HTTP {exc.code}"
            except (urllib.error.URLError, OSError) as exc:
                last = str(exc)
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"trove not ready after {STARTUP_TIMEOUT:.0f}s (GET {url}: {last}); "
                    f"log {self.log_path}:\n" + self.log_text()[-LOG_TAIL_CHARS:]
                )
            time.sleep(0.1)

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None:
            return
        rc = self.proc.poll()
        if rc is not None:
            if self.exit_code_before_stop is None:
                self.exit_code_before_stop = rc
            return
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                return
            try:
                self.proc.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue

    def log_size(self) -> int:
        try:
            return self.log_path.stat().st_size
        except OSError:
            return 0

    def log_text(self, offset: int = 0) -> str:
        try:
            with open(self.log_path, "rb") as f:
                f.seek(offset)
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""


_SERVERS: list = []


@atexit.register
def _kill_leftover_servers() -> None:
    for s in _SERVERS:
        s.stop()


def _server() -> Optional[TroveServer]:
    return _SERVERS[-1] if _SERVERS else None


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def trove(tmp_path_factory) -> TroveServer:
    """The trove server under test (one per session)."""
    binary = Path(os.environ.get("TROVE_BIN") or REPO_ROOT / "bin" / "trove")
    if not binary.is_file() or not os.access(binary, os.X_OK):
        pytest.exit(
            f"trove binary {binary} not found; build it with `go build -o bin/trove ./cmd/trove` "
            "or run the suite through e2e/run", returncode=2,
        )
    db_url = os.environ.get("TROVE_E2E_DB", "").strip()
    backend = os.environ.get("TROVE_E2E_BACKEND") or ("postgres" if db_url else "sqlite")
    server = TroveServer(binary, tmp_path_factory.mktemp("trove"), db_url, backend)
    _SERVERS.append(server)
    try:
        server.start()
    except RuntimeError as exc:
        # Nothing can run without the server: stop here instead of repeating
        # the same error for every test.
        pytest.exit(f"could not start trove: {exc}", returncode=3)
    yield server
    server.stop()
    if server.exit_code_before_stop is not None:
        raise RuntimeError(
            f"trove exited on its own during the run (code {server.exit_code_before_stop}); "
            f"see {server.log_path}"
        )


@dataclass
class ClearmlEnv:
    config_file: Path
    api_host: str
    web_host: str
    files_host: str
    access_key: str
    secret_key: str
    env: Dict[str, str] = field(default_factory=dict)


def _hocon_str(value: str) -> str:
    return json.dumps(value)  # JSON strings are valid HOCON quoted strings


@pytest.fixture(scope="session")
def clearml_env(trove, tmp_path_factory) -> ClearmlEnv:
    """clearml.conf + CLEARML_* variables for the server, set in os.environ.

    Retries are cut from the SDK's defaults (240 tries with backoff up to 120s,
    and waiting forever on 503) so that a broken server fails a test in
    seconds instead of hanging the run.
    """
    home = tmp_path_factory.mktemp("clearml")
    cache_dir = home / "cache"
    conf = home / "clearml.conf"
    api = trove.api_url
    conf.write_text(
        f"""# written by e2e/conftest.py for a throwaway trove server
api {{
    api_server: {_hocon_str(api)}
    web_server: {_hocon_str(api)}
    files_server: {_hocon_str(trove.files_url)}
    credentials {{
        access_key: {_hocon_str(trove.access_key)}
        secret_key: {_hocon_str(trove.secret_key)}
    }}
    http {{
        retries {{
            total: 4
            connect: 4
            read: 4
            redirect: 4
            status: 4
            backoff_factor: 0.2
            backoff_max: 2.0
        }}
        wait_on_maintenance_forever: false
    }}
}}
sdk {{
    development {{
        suppress_update_message: true
        # Detect the script's repository before Task.init returns. Detected
        # in a thread, the SDK can fork its reporting process while that
        # thread is starting git; the child then holds the exec pipe and the
        # script waits out the SDK's detection timeout (about 5 minutes).
        vcs_repo_detect_async: false
    }}
    storage {{
        cache {{
            default_base_dir: {_hocon_str(str(cache_dir))}
        }}
    }}
}}
"""
    )
    env = {
        "CLEARML_CONFIG_FILE": str(conf),
        "CLEARML_API_HOST": api,
        "CLEARML_WEB_HOST": api,
        "CLEARML_FILES_HOST": trove.files_url,
        "CLEARML_API_ACCESS_KEY": trove.access_key,
        "CLEARML_API_SECRET_KEY": trove.secret_key,
        "CLEARML_CACHE_DIR": str(cache_dir),
        "CLEARML_SUPPRESS_UPDATE_MESSAGE": "1",
    }
    mp = pytest.MonkeyPatch()
    for k, v in env.items():
        mp.setenv(k, v)
    yield ClearmlEnv(conf, api, api, trove.files_url, trove.access_key, trove.secret_key, env)
    mp.undo()


@pytest.fixture(scope="session")
def api(clearml_env):
    """An in-process ``APIClient`` of the real SDK, logged in as the admin.

    The SDK keeps process-global state (Session.api_version, config), which
    is fine here since every test talks to the same server as the same user.
    """
    from clearml.backend_api.session.client import APIClient

    return APIClient()


@pytest.fixture
def run_sdk(clearml_env, tmp_path) -> Callable[..., subprocess.CompletedProcess]:
    """Run Python code with the SDK in a fresh subprocess.

    ``run_sdk(code, env=None, unset=(), timeout=180, check=True)`` returns the
    CompletedProcess (text stdout/stderr). ``env`` adds variables, ``unset``
    removes some (e.g. to prove clearml.conf alone is enough). With check, a
    non-zero exit fails the test showing both streams.
    """
    counter = iter(range(1, 10_000))

    def run(code: str, env: Optional[Dict[str, str]] = None, unset: Iterable[str] = (),
            timeout: float = 180, check: bool = True) -> subprocess.CompletedProcess:
        script = tmp_path / f"sdk_script_{next(counter)}.py"
        script.write_text(code)
        full_env = dict(os.environ)
        full_env.update(env or {})
        for k in unset:
            full_env.pop(k, None)
        full_env["PYTHONUNBUFFERED"] = "1"
        try:
            proc = subprocess.run(
                [sys.executable, str(script)], cwd=str(tmp_path), env=full_env,
                stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(
                f"SDK script {script} timed out after {timeout}s\n"
                f"--- stdout ---\n{exc.stdout or ''}\n--- stderr ---\n{exc.stderr or ''}"
            ) from None
        if check and proc.returncode != 0:
            raise AssertionError(
                f"SDK script {script} exited with {proc.returncode}\n"
                f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
            )
        return proc

    return run


@pytest.fixture
def make_name(request) -> Callable[[str], str]:
    """Unique, readable entity names: ``make_name("x")`` -> ``e2e-<test>-<hex>-x``.

    The server is shared by all tests of a session, so names must not clash.
    """
    base = re.sub(r"[^A-Za-z0-9]+", "-", request.node.name.replace("test_", "", 1)).strip("-")[:40]
    token = secrets.token_hex(4)

    def make(suffix: str = "") -> str:
        return f"e2e-{base}-{token}" + (f"-{suffix}" if suffix else "")

    return make


# --------------------------------------------------------------------------- reporting


def pytest_report_header(config):
    db = os.environ.get("TROVE_E2E_DB", "").strip()
    backend = os.environ.get("TROVE_E2E_BACKEND") or ("postgres" if db else "sqlite")
    binary = os.environ.get("TROVE_BIN") or str(REPO_ROOT / "bin" / "trove")
    return [f"trove e2e: backend={backend} binary={binary}" + (f" db={db}" if db else "")]


def _backend() -> str:
    db = os.environ.get("TROVE_E2E_DB", "").strip()
    return "postgres" if db.startswith(("postgres://", "postgresql://")) else "sqlite"


def pytest_collection_modifyitems(config, items):
    """A test marked backend(name) belongs to that backend's run only: on
    the other backend it is deselected (it does not apply there), so a
    skip in the report always means something could not run."""
    backend = _backend()
    keep, drop = [], []
    for item in items:
        m = item.get_closest_marker("backend")
        (drop if m is not None and m.args[0] != backend else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    server = _server()
    item._trove_log_offset = server.log_size() if server else 0
    if server is not None and server.ready and not server.alive():
        pytest.fail(
            f"the trove server is no longer running (exit code {server.proc.poll()}); "
            f"see {server.log_path}", pytrace=False,
        )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    server = _server()
    if not rep.failed or server is None or not server.ready:
        return
    text = server.log_text(getattr(item, "_trove_log_offset", 0))
    if len(text) > LOG_TAIL_CHARS:
        text = "[... earlier lines cut ...]\n" + text[-LOG_TAIL_CHARS:]
    state = "" if server.alive() else f" [server NOT running, exit code {server.proc.poll()}]"
    rep.sections.append(
        (f"trove server log since this test started ({server.log_path}){state}", text or "(empty)")
    )


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    server = _server()
    if server is None:
        return
    tr = terminalreporter
    tr.write_sep("-", "trove server")
    tr.write_line(f"backend: {server.backend}  api: {server.api_url}  files: {server.files_url}")
    tr.write_line(f"data dir: {server.data_dir}")
    tr.write_line(f"log: {server.log_path}")
    if exitstatus not in (0, pytest.ExitCode.OK):
        tail = server.log_text()[-4000:]
        tr.write_line("last lines of the server log:")
        tr.write_line(tail.rstrip() or "(empty)")
