"""Several Trove nodes on one database (issue 15, "Scaling out").

On PostgreSQL a second ``trove serve`` starts on the session server's
database with the same admin key. The real SDK reports a task through one
node and reads it back through the other, entities written through either
node are listed by the other, and a logout on one node is refused by the
other within a second. On SQLite the second server must refuse to start:
one process owns the file.
"""

from __future__ import annotations

import atexit
import json
import time

import pytest
import requests

from conftest import TroveServer


@pytest.fixture(scope="module")
def second_node(trove, tmp_path_factory):
    """A second server on the session server's database, not started yet.

    It stays out of conftest's list of servers, whose last entry the
    report hooks take for the server under test.
    """
    node = TroveServer(trove.binary, tmp_path_factory.mktemp("trove-node-2"), trove.db_url, trove.backend)
    node.access_key, node.secret_key = trove.access_key, trove.secret_key
    if not trove.db_url:
        node.data_dir = trove.data_dir  # the same SQLite store
    atexit.register(node.stop)
    yield node
    node.stop()


@pytest.fixture(scope="module")
def http():
    s = requests.Session()
    s.trust_env = False
    yield s
    s.close()


def call(http, url, token, endpoint, body):
    res = http.post(f"{url}/{endpoint}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    return res.status_code, res.json()


def login(http, node) -> str:
    res = http.get(f"{node.api_url}/auth.login", auth=(node.access_key, node.secret_key), timeout=10)
    assert res.status_code == 200, res.text
    return res.json()["data"]["token"]


def test_second_node_starts_on_postgres_and_is_refused_on_sqlite(trove, second_node):
    if trove.db_url:
        second_node.start()
        assert second_node.alive()
        return
    with pytest.raises(RuntimeError) as exc:
        second_node.start()
    assert "lock" in str(exc.value).lower(), str(exc.value)[-2000:]


@pytest.fixture(scope="module")
def both(trove, second_node):
    """Nodes A and B: two processes on PostgreSQL; on SQLite, which one
    process serves, the session server twice (the checks then hold for
    that one node)."""
    if not trove.db_url:
        return trove, trove
    if not second_node.alive():
        second_node.start()
    return trove, second_node


REPORT = """
from clearml import Task
task = Task.init(project_name={project!r}, task_name={name!r}, auto_connect_frameworks=False,
                 auto_resource_monitoring=False, auto_connect_streams=False)
for i in range(50):
    task.get_logger().report_scalar("loss", "train", value=1.0 / (i + 1), iteration=i)
task.flush(wait_for_uploads=True)
print("TASK", task.id)
task.close()
"""

READ = """
import json, time
from clearml import Task
task = Task.get_task(task_id={task!r})
deadline = time.time() + 60
while True:
    s = task.get_reported_scalars()
    xs = s.get("loss", {{}}).get("train", {{}}).get("x", [])
    if len(xs) == 50 or time.time() > deadline:
        break
    time.sleep(0.5)
print("READ", json.dumps({{"project": task.get_project_name(), "scalars": s["loss"]["train"]}}))
"""


def node_env(node) -> dict:
    return {"CLEARML_API_HOST": node.api_url, "CLEARML_WEB_HOST": node.api_url, "CLEARML_FILES_HOST": node.files_url}


def test_sdk_writes_through_one_node_and_reads_through_the_other(trove, both, run_sdk, make_name):
    a, b = both
    project, name = make_name("project"), make_name("task")
    out = run_sdk(REPORT.format(project=project, name=name), env=node_env(a)).stdout
    task = [l.split()[1] for l in out.splitlines() if l.startswith("TASK ")][0]
    out = run_sdk(READ.format(task=task), env=node_env(b)).stdout
    got = json.loads([l[5:] for l in out.splitlines() if l.startswith("READ ")][0])
    assert got["project"] == project
    assert got["scalars"]["x"] == list(range(50))
    assert got["scalars"]["y"] == pytest.approx([1.0 / (i + 1) for i in range(50)])


def test_entities_written_on_either_node_are_seen_by_the_other(both, http, make_name):
    a, b = both
    ta, tb = login(http, a), login(http, b)
    for i, (writer, wtok, reader, rtok) in enumerate(((a, ta, b, tb), (b, tb, a, ta))):
        name = make_name(f"written-{i}")
        code, body = call(http, writer.api_url, wtok, "projects.create", {"name": name, "description": "x"})
        assert code == 200, body
        pid = body["data"]["id"]
        code, body = call(http, reader.api_url, rtok, "projects.get_all", {"id": [pid], "only_fields": ["name"]})
        assert code == 200, body
        assert [p["name"] for p in body["data"]["projects"]] == [name]


def test_logout_on_one_node_is_refused_by_the_other_within_a_second(both, http):
    a, b = both
    for _ in range(3):
        token = login(http, a)
        code, body = call(http, b.api_url, token, "projects.get_all", {"page_size": 1})
        assert code == 200, body
        code, body = call(http, a.api_url, token, "auth.logout", {})
        assert code == 200, body
        deadline = time.monotonic() + 1.0
        while True:
            code, body = call(http, b.api_url, token, "projects.get_all", {"page_size": 1})
            if code == 401:
                break
            assert time.monotonic() < deadline, f"node B still accepts the token 1 s after the logout on A: {code}"
            time.sleep(0.02)
