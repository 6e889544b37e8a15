"""queues.* and workers.* with the real clearml SDK and clearml-agent (issue 4).

- The SDK's typed ``APIClient`` drives every queue operation, so each answer
  must parse into the SDK's response models (one mistyped field and the SDK
  drops the whole reply).
- ``Task.enqueue`` of clones to a named queue and to the default queue (the
  one a fresh server creates), then ``Task.dequeue``, in an SDK subprocess.
- ``clearml-agent daemon`` registers as a worker and shows up in
  ``workers.get_all``; stopping it unregisters it. (Running tasks with the
  agent is the real-clients flow, e2e/test_agent.py.)

Server state is checked with raw calls through the session, so the test
sees exactly what the server answered.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clearml.backend_api.session.client import APIError
from clearml.backend_interface.util import exact_match_regex


def raw_call(api, endpoint: str, payload: dict) -> dict:
    """``data`` of a successful call (unversioned URL)."""
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    body = res.json()
    meta = body["meta"]
    assert res.status_code == 200 and meta["result_code"] == 200, f"{endpoint} {payload} -> {meta}"
    return body["data"]


def raw_error(api, endpoint: str, payload: dict) -> dict:
    """``meta`` of a call that must fail with a JSON error envelope."""
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    body = res.json()
    assert res.status_code == body["meta"]["result_code"] >= 400, f"{endpoint} {payload} should fail: {body}"
    return body["meta"]


def result_of(proc) -> dict:
    """The JSON of the last ``RESULT {json}`` line a script printed."""
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no RESULT line in output:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("RESULT "):])


def wait_for(fn, timeout: float, what: str, interval: float = 0.5):
    """Poll ``fn`` until it returns something truthy."""
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; last value: {value!r}")
        time.sleep(interval)


def new_task(api, name: str) -> str:
    """A task the server lets you enqueue (entry point and repository set)."""
    return api.tasks.create(name=name, type="training",
                            script={"repository": "https://example.com/repo.git", "entry_point": "train.py"}).id


def entry_tasks(api, queue_id: str) -> list:
    return [e["task"] for e in raw_call(api, "queues.get_by_id", {"queue": queue_id})["queue"]["entries"]]


def test_default_queue_exists(api):
    default = api.queues.get_default()
    assert default.name == "default" and default.id
    q = api.queues.get_by_id(queue=default.id)
    assert "default" in q.system_tags


def test_queue_lifecycle_through_typed_client(api, make_name):
    name = make_name("q")
    qid = api.queues.create(name=name, tags=["e2e"]).id
    # The agent looks queues up by an escaped, unanchored name and polls with
    # only_fields ["id", "tags"]: tags must stay a list.
    found = api.queues.get_all(name=exact_match_regex(name), only_fields=["id", "name"])
    assert [q.id for q in found] == [qid]
    polled = raw_call(api, "queues.get_all", {"id": [qid], "only_fields": ["id", "tags"]})["queues"]
    assert polled == [{"id": qid, "tags": ["e2e"]}]

    tasks = [new_task(api, make_name(f"t{i}")) for i in range(3)]
    for t in tasks:
        assert api.queues.add_task(queue=qid, task=t).added == 1
    assert api.queues.get_num_entries(queue=qid).num == 3
    assert api.queues.peek_task(queue=qid).task == tasks[0]
    assert api.queues.move_task_to_back(queue=qid, task=tasks[0]).position == 2
    assert api.queues.move_task_forward(queue=qid, task=tasks[0], count=1).position == 1
    assert entry_tasks(api, qid) == [tasks[1], tasks[0], tasks[2]]

    q = api.queues.get_by_id(queue=qid)
    assert [e.task for e in q.entries] == [tasks[1], tasks[0], tasks[2]]
    ex = raw_call(api, "queues.get_all_ex", {"id": [qid]})["queues"][0]
    assert ex["entries"][0]["task"]["id"] == tasks[1] and ex["entries"][0]["task"]["name"]

    nxt = api.queues.get_next_task(queue=qid)
    assert nxt.entry.task == tasks[1]
    assert api.queues.remove_task(queue=qid, task=tasks[2]).removed == 1
    with pytest.raises(APIError) as err:
        api.queues.remove_task(queue=qid, task=tasks[2])
    assert err.value.code == 400 and err.value.subcode == 703

    raw_call(api, "queues.add_or_update_metadata",
             {"queue": qid, "metadata": [{"key": "zone", "type": "str", "value": "eu"}]})
    meta = raw_call(api, "queues.get_by_id", {"queue": qid})["queue"]["metadata"]
    assert meta == {"zone": {"key": "zone", "type": "str", "value": "eu"}}

    now = time.time()
    metrics = api.queues.get_queue_metrics(from_date=now - 600, to_date=now + 60, interval=60, queue_ids=[qid])
    series = metrics.queues[0]
    # Each bucket reports its sample with the longest wait (and that sample's length).
    assert series.queue == qid and series.dates and len(series.queue_lengths) == len(series.dates)
    assert all(isinstance(w, (int, float)) for w in series.avg_waiting_times)
    overall = raw_call(api, "queues.get_queue_metrics", {"from_date": now - 600, "to_date": now + 60, "interval": 60})
    assert [s["queue"] for s in overall["queues"]] == ["all"]

    with pytest.raises(APIError) as err:
        api.queues.delete(queue=qid)
    assert err.value.code == 400 and err.value.subcode == 702
    assert api.queues.delete(queue=qid, force=True).deleted == 1


def test_unknown_queue_is_a_json_400(api):
    # Task.enqueue first asks queues.get_by_id with the queue's NAME.
    meta = raw_error(api, "queues.get_by_id", {"queue": "no such queue"})
    assert (meta["result_code"], meta["result_subcode"]) == (400, 701)


ENQUEUE_SCRIPT = """
import json
from clearml import Task

source = Task.get_task(task_id={source!r})
named = Task.clone(source_task=source, name="clone to named queue")
Task.enqueue(named, queue_name={queue!r})
default = Task.clone(source_task=source, name="clone to default queue")
Task.enqueue(default, queue_name="default")
queued_status = str(Task.get_task(task_id=default.id).get_status())
count = Task.get_num_enqueued_tasks(queue_name={queue!r})
Task.dequeue(default)
print("RESULT " + json.dumps({{"named": named.id, "default": default.id, "queued_status": queued_status,
                              "count": count}}))
"""


def test_sdk_enqueue_clones_and_dequeue(api, run_sdk, make_name):
    queue = make_name("named")
    qid = api.queues.create(name=queue).id
    default_id = api.queues.get_default().id
    source = new_task(api, make_name("source"))

    out = result_of(run_sdk(ENQUEUE_SCRIPT.format(source=source, queue=queue)))
    named, default = out["named"], out["default"]
    assert out["queued_status"] == "queued" and out["count"] == 1

    t = raw_call(api, "tasks.get_by_id", {"task": named})["task"]
    assert t["status"] == "queued" and t["execution"]["queue"] == qid
    assert entry_tasks(api, qid) == [named]

    t = raw_call(api, "tasks.get_by_id", {"task": default})["task"]
    assert t["status"] == "created", "Task.dequeue puts the clone back to created"
    assert default not in entry_tasks(api, default_id)

    # Enqueue without naming a queue lands in the default queue.
    raw_call(api, "tasks.enqueue", {"task": default})
    assert default in entry_tasks(api, default_id)
    raw_call(api, "tasks.dequeue", {"task": default})
    assert default not in entry_tasks(api, default_id)


def test_worker_status_report_marks_task(api, make_name):
    worker = make_name("worker")
    task = new_task(api, make_name("run"))
    raw_call(api, "workers.register", {"worker": worker, "timeout": 60})
    raw_call(api, "workers.status_report", {"worker": worker, "timestamp": int(time.time()) * 1000, "task": task,
                                            "machine_stats": {"cpu_usage": [42.0], "memory_used": 512.0}})
    workers = {w.id: w for w in api.workers.get_all()}
    assert workers[worker].task.id == task
    assert raw_call(api, "tasks.get_by_id", {"task": task})["task"]["last_worker"] == worker
    keys = api.workers.get_metric_keys(worker_ids=[worker])
    assert {c.name for c in keys.categories} == {"cpu", "memory"}
    now = time.time()
    stats = api.workers.get_stats(from_date=now - 600, to_date=now + 60, interval=60, worker_ids=[worker],
                                  items=[{"key": "cpu_usage", "aggregation": "max"}])
    assert 42.0 in stats.workers[0].metrics[0].stats[0].values
    activity = api.workers.get_activity_report(from_date=now - 600, to_date=now + 120, interval=60)
    assert max(activity.total.counts) >= 1
    raw_call(api, "workers.unregister", {"worker": worker})
    assert worker not in {w.id for w in api.workers.get_all()}


@pytest.fixture
def agent_home(tmp_path, clearml_env):
    """HOME and clearml-agent.conf for a daemon that needs no network."""
    conf = tmp_path / "clearml-agent.conf"
    conf.write_text(Path(clearml_env.config_file).read_text() + f"""
agent {{
    venvs_dir: {json.dumps(str(tmp_path / "venvs"))}
    vcs_cache {{ enabled: false, path: {json.dumps(str(tmp_path / "vcs-cache"))} }}
    pip_download_cache {{ enabled: false, path: {json.dumps(str(tmp_path / "pip-cache"))} }}
    venv_update {{ enabled: false }}
    package_manager {{ type: pip, system_site_packages: true }}
}}
""")
    return tmp_path, conf


def test_agent_registers_as_worker(api, make_name, agent_home):
    home, conf = agent_home
    queue = make_name("agentq")
    qid = api.queues.create(name=queue).id
    worker_id = make_name("agent") + ":cpu"
    env = {k: v for k, v in os.environ.items()}
    env.update({"HOME": str(home), "CLEARML_CONFIG_FILE": str(conf), "CLEARML_WORKER_ID": worker_id,
                "CLEARML_AGENT_SKIP_PYTHON_ENV_INSTALL": "1", "CLEARML_AGENT_SKIP_PIP_VENV_INSTALL": sys.executable,
                "PYTHONUNBUFFERED": "1"})
    log_path = home / "agent.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen([sys.executable, "-m", "clearml_agent", "daemon", "--queue", queue, "--cpu-only",
                                 "--foreground"], cwd=str(home), env=env, stdin=subprocess.DEVNULL, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        def listed():
            assert proc.poll() is None, "clearml-agent exited:\n" + log_path.read_text(errors="replace")[-5000:]
            return {w.id: w for w in api.workers.get_all()}.get(worker_id)

        w = wait_for(listed, 90, f"worker {worker_id} in workers.get_all")
        assert [q.id for q in w.queues] == [qid] and w.queues[0].name == queue
        ex = raw_call(api, "queues.get_all_ex", {"id": [qid]})["queues"][0]
        assert worker_id in [x["name"] for x in ex["workers"]]
        assert raw_call(api, "workers.get_count", {})["count"] >= 1
    finally:
        for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 5)):
            try:
                os.killpg(proc.pid, sig)
                proc.wait(timeout=wait)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue
        print("--- clearml-agent log ---\n" + log_path.read_text(errors="replace")[-20000:])
    # The daemon unregisters on SIGTERM.
    wait_for(lambda: worker_id not in {w.id for w in api.workers.get_all()}, 30, f"{worker_id} to unregister")
