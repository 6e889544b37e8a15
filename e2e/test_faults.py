"""The real SDK loses nothing while trove's database is unreachable or its
disk is full.

A private trove server reaches PostgreSQL through a TCP proxy that the test
cuts (open connections dropped, new ones closed at once) for CUT_SECONDS
while the SDK, with its default retry settings, reports 80 iterations x 50
scalars, log lines, an artifact and a model. Trove answers every store
fault with 503 + Retry-After, which the SDK's API session retries until the
database is back; after ``task.close()`` every point, line, artifact and
model must be stored. The figures (reported vs stored) are printed.

The database cut runs on PostgreSQL (``TROVE_E2E_DB`` a postgres URL); the
full disk on SQLite, with the data directory on a 64 MB tmpfs (root only).
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from base64 import b64encode
from pathlib import Path

import pytest

from conftest import REPO_ROOT, TroveServer

CUT_SECONDS = 25  # the upload hold is 20 s: an upload spans two SDK tries
ITERATIONS, SCALARS = 80, 50


class Proxy:
    """A TCP proxy to target that can be cut and restored."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port = self.sock.getsockname()[1]
        self.lock = threading.Lock()
        self.cut_now = False
        self.conns: set = set()
        self.closed = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.closed:
            try:
                c, _ = self.sock.accept()
            except OSError:
                return
            with self.lock:
                cut = self.cut_now
            if cut:
                c.close()
                continue
            try:
                up = socket.create_connection(self.target)
            except OSError:
                c.close()
                continue
            with self.lock:
                self.conns.update((c, up))
            threading.Thread(target=self._pipe, args=(c, up), daemon=True).start()
            threading.Thread(target=self._pipe, args=(up, c), daemon=True).start()

    def _pipe(self, src, dst) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.close()
            except OSError:
                pass
        with self.lock:
            self.conns.discard(src)
            self.conns.discard(dst)

    def cut(self) -> None:
        with self.lock:
            self.cut_now = True
            conns = list(self.conns)
        for c in conns:
            try:
                c.shutdown(socket.SHUT_RDWR)
                c.close()
            except OSError:
                pass

    def restore(self) -> None:
        with self.lock:
            self.cut_now = False

    def close(self) -> None:
        self.closed = True
        self.cut()
        self.sock.close()


SDK_SCRIPT = r'''
import os, sys, time
from clearml import Task, OutputModel
task = Task.init(project_name=os.environ["E2E_PROJECT"], task_name="faults",
                 auto_connect_frameworks=False, auto_resource_monitoring=False, output_uri=True)
print("TASK", task.id, flush=True)
logger = task.get_logger()
artifact = os.path.join(os.environ["E2E_TMP"], "artifact.txt")
weights = os.path.join(os.environ["E2E_TMP"], "weights.bin")
open(artifact, "w").write("artifact body\n" * 1000)
open(weights, "wb").write(os.urandom(200000))
for it in range(%(iterations)d):
    for j in range(%(scalars)d):
        logger.report_scalar("metric%%d" %% (j // 10), "v%%d" %% (j %% 10), value=it * 1000 + j, iteration=it)
    logger.report_text("log line %%d" %% it)
    if os.environ.get("E2E_BIG"):  # log text the database must find new room for
        logger.report_text("bulk %%d " %% it + "".join(chr(97 + (it * 7 + k) %% 26) for k in range(200000)))
    if it == 10:
        print("CUT", flush=True)
        while not os.path.exists(os.environ["E2E_CUT_FLAG"]):
            time.sleep(0.05)
    if it == 20:
        print("UPLOAD", flush=True)
        task.upload_artifact("faults-artifact", artifact_object=artifact, wait_on_upload=True)
        model = OutputModel(task=task, name="faults-model")
        model.update_weights(weights_filename=weights, auto_delete_file=False)
        print("UPLOADED", flush=True)
    time.sleep(0.2)
print("CLOSING", flush=True)
task.close()
print("CLOSED", flush=True)
''' % {"iterations": ITERATIONS, "scalars": SCALARS}


def _call(server: TroveServer, token: str, endpoint: str, body: dict) -> dict:
    req = urllib.request.Request(f"{server.api_url}/{endpoint}", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())["data"]


def _token(server: TroveServer) -> str:
    auth = b64encode(f"{server.access_key}:{server.secret_key}".encode()).decode()
    req = urllib.request.Request(f"{server.api_url}/auth.login", data=b"{}",
                                 headers={"Content-Type": "application/json", "Authorization": f"Basic {auth}"})
    with urllib.request.urlopen(req, timeout=30) as resp:
        return json.loads(resp.read())["data"]["token"]


def _report_through_fault(tmp_path, server: TroveServer, fault_on, fault_off, seconds: float, what: str,
                          extra_env: dict = None) -> None:
    """Runs the SDK script against server, turning the fault on when it has
    reported 10 iterations and off `seconds` later, and checks that
    everything it reported is stored."""
    conf = tmp_path / "clearml.conf"
    # the SDK's default retries: nothing cut, waiting on 503 as it does
    conf.write_text(
        "api {\n"
        f"  api_server: {json.dumps(server.api_url)}\n  web_server: {json.dumps(server.api_url)}\n"
        f"  files_server: {json.dumps(server.files_url)}\n"
        f"  credentials {{ access_key: {json.dumps(server.access_key)}, secret_key: {json.dumps(server.secret_key)} }}\n"
        "}\nsdk { development { suppress_update_message: true, vcs_repo_detect_async: false } }\n")  # (conftest.py says why)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLEARML_", "TRAINS_"))}
    project = f"e2e-faults-{os.getpid()}-{int(time.time())}"
    flag = tmp_path / "cut.flag"
    env.update(CLEARML_CONFIG_FILE=str(conf), CLEARML_CACHE_DIR=str(tmp_path / "cache"), PYTHONUNBUFFERED="1",
               E2E_PROJECT=project, E2E_TMP=str(tmp_path), E2E_CUT_FLAG=str(flag))
    env.update(extra_env or {})
    script = tmp_path / "sdk_faults.py"
    script.write_text(SDK_SCRIPT)
    out_path = tmp_path / "sdk.out"
    with open(out_path, "w") as out:
        proc = subprocess.Popen([sys.executable, str(script)], cwd=str(tmp_path), env=env,
                                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def wait_for(text: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while text not in out_path.read_text():
            assert proc.poll() is None or text in out_path.read_text(), f"SDK exited before {text!r}:\n{out_path.read_text()}"
            assert time.monotonic() < deadline, f"no {text!r} from the SDK in {timeout}s:\n{out_path.read_text()}"
            time.sleep(0.05)

    try:
        wait_for("CUT", 120)
        fault_on()
        cut_at = time.monotonic()
        flag.write_text("cut")
        time.sleep(seconds)
        fault_off()
        print(f"{what} for {time.monotonic() - cut_at:.1f}s")
        proc.wait(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    text = out_path.read_text()
    assert proc.returncode == 0 and "CLOSED" in text, f"SDK script failed ({proc.returncode}):\n{text}"
    task_id = next(line.split()[1] for line in text.splitlines() if line.startswith("TASK "))

    token = _token(server)
    hist = _call(server, token, "events.scalar_metrics_iter_histogram", {"task": task_id, "samples": 6000})
    stored = {(m, v): len(d["x"]) for m, vs in hist.items() for v, d in vs.items()}
    points = sum(n for (m, v), n in stored.items() if m.startswith("metric"))
    log = _call(server, token, "events.get_task_log", {"task": task_id, "batch_size": 10000, "navigate_earlier": False, "order": "asc"})
    # the SDK may send several report_text lines as one event
    lines = sorted({ln for e in log.get("events", []) for ln in str(e.get("msg", "")).splitlines()
                    if ln.startswith("log line")})
    t = _call(server, token, "tasks.get_by_id", {"task": task_id})["task"]
    artifacts = [a["key"] for a in (t.get("execution", {}).get("artifacts") or [])]
    models = _call(server, token, "models.get_all", {"task": [task_id], "only_fields": ["id", "name", "uri"]})["models"]
    failures = [ln for ln in text.splitlines() if "Action failed" in ln or "Failed uploading" in ln or "Exception" in ln]
    print(f"{what}: scalars reported {ITERATIONS * SCALARS}, stored {points}; log lines reported {ITERATIONS}, stored {len(lines)}; "
          f"artifacts {artifacts}; models {[(m['name'], m.get('uri')) for m in models]}; SDK failure lines: {failures}")
    assert points == ITERATIONS * SCALARS, f"stored {points} of {ITERATIONS * SCALARS} scalars\n{text}"
    assert len(lines) == ITERATIONS, f"stored {len(lines)} of {ITERATIONS} log lines: {lines}"
    assert "faults-artifact" in artifacts, f"artifact not stored: {artifacts}\n{text}"
    assert any(m["name"] == "faults-model" and str(m.get("uri", "")).startswith("http") for m in models), \
        f"model weights not uploaded: {models}\n{text}"
    met = server.log_text().count("retryable")
    print(f"{what}: the server answered {met} store faults (503) or held uploads meanwhile")
    assert met > 0, "the fault was never met by the server"


@pytest.mark.backend("postgres")  # the database is cut through a proxy
def test_sdk_loses_nothing_while_the_database_is_away(tmp_path):
    db_url = os.environ.get("TROVE_E2E_DB", "").strip()
    u = urllib.parse.urlsplit(db_url)
    proxy = Proxy(u.hostname or "127.0.0.1", u.port or 5432)
    via = urllib.parse.urlunsplit(u._replace(netloc=(u.netloc.rsplit("@", 1)[0] + "@" if "@" in u.netloc else "") + f"127.0.0.1:{proxy.port}"))
    binary = Path(os.environ.get("TROVE_BIN") or REPO_ROOT / "bin" / "trove")
    (tmp_path / "server").mkdir()
    server = TroveServer(binary, tmp_path / "server", via, "postgres")
    server.start()
    try:
        _report_through_fault(tmp_path, server, proxy.cut, proxy.restore, CUT_SECONDS, "database cut")
    finally:
        server.stop()
        proxy.close()


FULL_SECONDS = 15


@pytest.mark.backend("sqlite")  # the database's disk is the data directory's
def test_sdk_loses_nothing_while_the_disk_is_full(tmp_path):
    """SQLite with its data directory on a 64 MB tmpfs that is filled for
    FULL_SECONDS, then freed (needs root to mount; skipped otherwise)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(disk)], capture_output=True, text=True)
    if mount.returncode != 0:
        pytest.skip(f"cannot mount a 64 MB tmpfs here ({mount.stderr.strip()}): the full-disk case is not run")
    filler = disk / "filler"

    def fill() -> None:
        """Appends to the filler until the disk is full (never truncating)."""
        for n in (1 << 16, 4096, 512, 1):
            try:
                with open(filler, "ab") as f:
                    while True:
                        f.write(b"\0" * n)
                        f.flush()
            except OSError:
                pass

    # space the server frees (SQLite truncating its log) is taken again at
    # once, so the disk stays full for the whole window
    stop = threading.Event()
    filling = []

    def full_on() -> None:
        fill()

        def keep_full() -> None:
            while not stop.wait(0.02):
                fill()
        th = threading.Thread(target=keep_full, daemon=True)
        th.start()
        filling.append(th)

    def full_off() -> None:
        stop.set()
        for th in filling:
            th.join()
        filler.unlink()

    binary = Path(os.environ.get("TROVE_BIN") or REPO_ROOT / "bin" / "trove")
    (tmp_path / "server").mkdir()
    server = TroveServer(binary, tmp_path / "server", "", "sqlite")
    server.data_dir = disk / "data"  # the log stays off the full disk
    server.start()
    try:
        _report_through_fault(tmp_path, server, full_on, full_off, FULL_SECONDS, "disk full", {"E2E_BIG": "1"})
    finally:
        server.stop()
        subprocess.run(["umount", "-l", str(disk)], check=False)
