"""tasks.* through the real clearml SDK (issue 3).

A script runs ``Task.init`` (project created, task created and started),
connects a dict of hyper parameters and a configuration, and closes the task
(completed); the same script runs again (the SDK reuses or replaces the
task, as it decides). A second script reads tasks back (``Task.get_task``,
``Task.get_tasks`` with filters), clones, sets parameters and drives the
state operations (``mark_started``, ``mark_stopped``, ``mark_failed``,
``publish``). Server state is checked with raw calls through the session's
APIClient.
"""

from __future__ import annotations

import json

import pytest


def raw_call(api, endpoint: str, payload: dict) -> dict:
    """``data`` of a successful call (unversioned URL)."""
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    body = res.json()
    meta = body["meta"]
    assert res.status_code == 200 and meta["result_code"] == 200, f"{endpoint} {payload} -> {meta}"
    return body["data"]


def result_of(proc) -> dict:
    """The JSON of the last ``RESULT {json}`` line a script printed."""
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no RESULT line in output:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("RESULT "):])


def get_task(api, task_id: str) -> dict:
    return raw_call(api, "tasks.get_by_id", {"task": task_id})["task"]


INIT_SCRIPT = """
import json
from clearml import Task

task = Task.init(project_name={project!r}, task_name={name!r}, auto_connect_frameworks=False,
                 auto_resource_monitoring=False, auto_connect_streams=False)
params = task.connect({{"lr": 0.01, "epochs": 5, "arch": "resnet"}})
cfg = task.connect_configuration({{"layers": [64, 32], "dropout": 0.5}}, name="model_cfg")
out = {{"id": task.id, "project": task.project, "status_while_running": str(task.get_status()),
       "params": dict(params)}}
task.close()
print("RESULT " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def init_run(api, clearml_env, tmp_path_factory, request):
    """One Task.init run, then a rerun of the same script in the same directory."""
    import os
    import secrets
    import subprocess
    import sys

    token = secrets.token_hex(4)
    names = {"project": f"e2e-tasks-{token}", "name": f"e2e task {token}"}
    workdir = tmp_path_factory.mktemp("tasks-init")
    script = workdir / "train.py"
    script.write_text(INIT_SCRIPT.format(**names))
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"

    def run():
        proc = subprocess.run([sys.executable, str(script)], cwd=str(workdir), env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, f"script failed:\n{proc.stdout}\n{proc.stderr}"
        return result_of(proc)

    first = run()
    second = run()
    return names, first, second


def test_task_init_creates_project_and_starts_task(api, init_run):
    names, first, _ = init_run
    assert first["status_while_running"] == "in_progress"
    projects = raw_call(api, "projects.get_all", {"name": f"^{names['project']}$"})["projects"]
    assert [p["id"] for p in projects] == [first["project"]]
    task = get_task(api, first["id"])
    assert task["name"] == names["name"]
    assert task["project"] == first["project"]
    assert task["type"] == "training"
    assert task["started"]


def test_connect_and_close(api, init_run):
    _, first, _ = init_run
    task = get_task(api, first["id"])
    assert task["status"] == "completed"
    assert task["completed"]
    general = task["hyperparams"]["General"]
    assert {k: general[k]["value"] for k in ("lr", "epochs", "arch")} == {"lr": "0.01", "epochs": "5", "arch": "resnet"}
    cfg = task["configuration"]["model_cfg"]
    assert "dropout" in cfg["value"] and cfg["name"] == "model_cfg"
    names = raw_call(api, "tasks.get_configuration_names", {"tasks": [first["id"]]})["configurations"]
    assert names == [{"task": first["id"], "names": ["model_cfg"]}]


def test_rerun_same_script(api, init_run):
    names, first, second = init_run
    rerun = get_task(api, second["id"])
    assert rerun["status"] == "completed"
    assert rerun["name"] == names["name"]
    assert rerun["project"] == first["project"]
    if second["id"] != first["id"]:
        # The SDK did not reuse the completed task: the first run is intact.
        assert get_task(api, first["id"])["status"] == "completed"


READBACK_SCRIPT = """
import json
from clearml import Task

src = Task.get_task(task_id={task_id!r})
found = Task.get_tasks(project_name={project!r}, task_name={name!r})
none = Task.get_tasks(project_name={project!r}, task_name="no such task at all")
tagged = Task.get_tasks(project_name={project!r}, tags=["no-such-tag"])

clone = Task.clone(source_task=src, name="clone of " + src.name)
clone.set_parameters({{"General/lr": 0.5, "General/extra": "x"}})
clone.mark_started()
clone.mark_stopped()
clone.reload()
stopped_status = str(clone.get_status())
clone.publish()
clone.reload()

failing = Task.clone(source_task=src, name="failing clone")
failing.mark_started()
failing.mark_failed(status_reason="boom")
failing.reload()

print("RESULT " + json.dumps({{
    "src_name": src.name, "src_status": str(src.get_status()),
    "found": sorted(t.id for t in found), "none": len(none), "tagged": len(tagged),
    "clone": clone.id, "clone_params": clone.get_parameters(), "stopped_status": stopped_status,
    "published_status": str(clone.get_status()), "failing": failing.id, "failed_status": str(failing.get_status()),
}}))
"""


def test_readback_clone_and_states(api, init_run, run_sdk):
    names, first, second = init_run
    proc = run_sdk(READBACK_SCRIPT.format(task_id=first["id"], project=names["project"], name=names["name"]), timeout=600)
    out = result_of(proc)
    assert out["src_name"] == names["name"] and out["src_status"] == "completed"
    assert first["id"] in out["found"] and second["id"] in out["found"]
    assert out["none"] == 0 and out["tagged"] == 0

    clone = get_task(api, out["clone"])
    assert clone["parent"] == first["id"]
    assert clone["project"] == first["project"]
    assert clone["hyperparams"]["General"]["lr"]["value"] == "0.5"
    assert clone["hyperparams"]["General"]["extra"]["value"] == "x"
    assert clone["configuration"]["model_cfg"]["value"] == get_task(api, first["id"])["configuration"]["model_cfg"]["value"]
    assert out["stopped_status"] == "stopped"
    assert out["published_status"] == "published" and clone["status"] == "published" and clone["published"]

    failing = get_task(api, out["failing"])
    assert out["failed_status"] == "failed" and failing["status"] == "failed"
    assert failing["status_reason"] == "boom"
