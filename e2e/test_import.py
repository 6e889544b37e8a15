"""``trove import``: a task reported with the real SDK into the session's
server is imported through the API into a second store, and a server on
that store gives the task, its scalars and its artifact back to the SDK.

The second store is SQLite in a fresh data dir, whatever the session
backend; the source is the session server (so both backends serve as a
source across the runs).
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from conftest import REPO_ROOT, _free_port

REPORT = r'''
import json
from clearml import Task
task = Task.init(project_name=PROJECT, task_name="imported", reuse_last_task_id=False, auto_connect_frameworks=False)
task.connect({"lr": 0.25, "epochs": 3}, name="Args")
logger = task.get_logger()
for i in range(5):
    logger.report_scalar("loss", "train", value=1.0 / (i + 1), iteration=i)
logger.report_text("hello from the source")
task.upload_artifact("numbers", artifact_object={"a": 1, "b": [1, 2, 3]}, wait_on_upload=True)
task.flush(wait_for_uploads=True)
print("TASK_ID=" + task.id)
task.close()
'''

CHECK = r'''
import json, os
from clearml import Task
task = Task.get_task(task_id=os.environ["E2E_TASK"])
scalars = task.get_reported_scalars()
art = task.artifacts["numbers"]
print("RESULT=" + json.dumps({
    "name": task.name, "status": task.get_status(),
    "params": task.get_parameters(), "loss": scalars["loss"]["train"],
    "artifact_url": art.url, "artifact": art.get(),
}))
'''


def _binary() -> Path:
    return Path(os.environ.get("TROVE_BIN") or REPO_ROOT / "bin" / "trove")


def _result(proc: subprocess.CompletedProcess, prefix: str) -> str:
    for line in proc.stdout.splitlines():
        if line.startswith(prefix):
            return line[len(prefix):]
    raise AssertionError(f"no {prefix} line in:\n{proc.stdout}\n{proc.stderr}")


def _import(trove, data_dir: Path, files_url: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TROVE_")}
    return subprocess.run(
        [str(_binary()), "import", "--from", trove.api_url, "--key", trove.access_key, "--secret", trove.secret_key,
         "--from-files", trove.files_url, "--data-dir", str(data_dir), "--files-url", files_url],
        env=env, capture_output=True, text=True, timeout=300,
    )


@pytest.fixture
def target(tmp_path):
    """A second server's settings (ports, data dir, key); started by the test."""
    class Target:
        data_dir = tmp_path / "target-data"
        api_port, files_port = _free_port(), _free_port()
        key, secret = "IMPORTTARGET" + secrets.token_hex(6).upper(), secrets.token_urlsafe(30)
        proc = None

        @property
        def api_url(self):
            return f"http://127.0.0.1:{self.api_port}"

        @property
        def files_url(self):
            return f"http://127.0.0.1:{self.files_port}"

        def start(self):
            env = {k: v for k, v in os.environ.items() if not k.startswith(("TROVE_", "CLEARML_"))}
            env.update(TROVE_ADMIN_KEY=self.key, TROVE_ADMIN_SECRET=self.secret)
            self.proc = subprocess.Popen(
                [str(_binary()), "serve", "--data-dir", str(self.data_dir), "--api-addr", f"127.0.0.1:{self.api_port}",
                 "--files-addr", f"127.0.0.1:{self.files_port}", "--web-addr", "127.0.0.1:0"],
                stdin=subprocess.DEVNULL, stdout=open(tmp_path / "target.log", "wb"), stderr=subprocess.STDOUT,
                env=env, start_new_session=True,
            )
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
                            f"{self.api_url}/debug.ping", timeout=2) as r:
                        if r.status == 200:
                            return
                except OSError:
                    pass
                assert self.proc.poll() is None, (tmp_path / "target.log").read_text()
                assert time.monotonic() < deadline, "target server not ready"
                time.sleep(0.1)

    t = Target()
    yield t
    if t.proc is not None and t.proc.poll() is None:
        t.proc.terminate()
        t.proc.wait(timeout=10)


def test_import_a_task_reported_with_the_sdk(trove, run_sdk, make_name, target, tmp_path):
    project = make_name("project")
    reported = run_sdk(f"PROJECT = {project!r}\n" + REPORT)
    task_id = _result(reported, "TASK_ID=")

    first = _import(trove, target.data_dir, target.files_url)
    assert first.returncode == 0, first.stderr
    assert "tasks" in first.stderr and "files" in first.stderr, first.stderr
    again = _import(trove, target.data_dir, target.files_url)
    assert again.returncode == 0, again.stderr
    assert "tasks    0 imported" in again.stderr and "events   0 written" in again.stderr, again.stderr

    target.start()
    # the running server holds the SQLite store: an import says to stop it
    locked = _import(trove, target.data_dir, target.files_url)
    assert locked.returncode != 0 and "stop" in locked.stderr and "SQLite" in locked.stderr, locked.stderr

    env = {
        "CLEARML_API_HOST": target.api_url, "CLEARML_WEB_HOST": target.api_url,
        "CLEARML_FILES_HOST": target.files_url, "CLEARML_API_ACCESS_KEY": target.key,
        "CLEARML_API_SECRET_KEY": target.secret, "CLEARML_CACHE_DIR": str(tmp_path / "target-cache"),
        "E2E_TASK": task_id,
    }
    checked = run_sdk(CHECK, env=env, unset=("CLEARML_CONFIG_FILE",))
    got = json.loads(_result(checked, "RESULT="))
    assert got["name"] == "imported" and got["status"] == "completed", got
    assert got["params"]["Args/lr"] == "0.25" and got["params"]["Args/epochs"] == "3", got["params"]
    assert got["loss"]["x"] == [0, 1, 2, 3, 4], got["loss"]
    assert got["loss"]["y"] == pytest.approx([1.0, 0.5, 1 / 3, 0.25, 0.2]), got["loss"]
    assert got["artifact_url"].startswith(target.files_url + "/"), got["artifact_url"]
    assert got["artifact"] == {"a": 1, "b": [1, 2, 3]}, got["artifact"]
