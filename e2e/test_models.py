"""models.* through the real clearml SDK.

What the SDK does with models (sdk-flows (e)): ``OutputModel(task=...)``
creates a draft model, edits it, attaches it to the task
(tasks.add_or_update_model) and, without an output_uri, registers the
local weights file as a ``file://`` URI; ``InputModel`` and
``Model.query_models`` read models back; ``Model.publish`` calls
models.set_ready with ``publish_task: false``; metadata goes through
models.add_or_update_metadata and is read back as a map keyed by key.

Task flows run in SDK subprocesses (``run_sdk``); server state is then
checked with raw calls through the session's APIClient, so the test sees
what the server answered rather than the SDK's typed view.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys

import pytest
from clearml.backend_api.session.client import APIError


def raw_call(api, endpoint: str, payload: dict, expect_ok: bool = True):
    """``data`` of a call (unversioned URL), or (code, subcode) when it failed and expect_ok is False."""
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    body = res.json()
    meta = body["meta"]
    if expect_ok:
        assert res.status_code == 200 and meta["result_code"] == 200, f"{endpoint} {payload} -> {meta}"
        return body["data"]
    return meta["result_code"], meta["result_subcode"]


def sdk_result(proc) -> dict:
    """The JSON of the last ``RESULT {json}`` line an SDK script printed."""
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no RESULT line in output:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("RESULT "):])


TRAIN_SCRIPT = """
import json, os
from clearml import Task, OutputModel

task = Task.init(project_name={project!r}, task_name={task_name!r}, auto_connect_frameworks=False,
                 auto_resource_monitoring=False, auto_connect_streams=False)
weights = os.path.abspath("weights.bin")
with open(weights, "wb") as f:
    f.write(b"trove model weights " * 64)
model = OutputModel(task=task, name={model_name!r}, framework="PyTorch",
                    label_enumeration={{"background": 0, "cat": 1}}, tags=["e2e"])
model.update_weights(weights_filename=weights, async_enable=False, auto_delete_file=False, iteration=42)
model.set_metadata("accuracy", "0.93", "float")
model.set_all_metadata({{"epochs": {{"value": "12", "type": "int"}}}}, replace=False)
meta = model.get_all_metadata()
out = {{"task": task.id, "model": model.id, "url": model.url, "weights": weights,
       "metadata": meta, "published_before": model.published}}
model.publish()
out["published_after"] = model.published
task.close()
print("RESULT " + json.dumps(out))
"""


@pytest.fixture(scope="module")
def trained(api, clearml_env, tmp_path_factory):
    """One SDK training run that saves and publishes an OutputModel."""
    token = secrets.token_hex(4)
    names = {"project": f"e2e-models-{token}", "task_name": f"train-{token}", "model_name": f"e2e-net-{token}"}
    workdir = tmp_path_factory.mktemp("models-train")
    script = workdir / "train.py"
    script.write_text(TRAIN_SCRIPT.format(**names))
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.run([sys.executable, str(script)], cwd=str(workdir), env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"training script failed\n--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    out = sdk_result(proc)
    out.update(names)
    return out


def test_output_model_is_stored_with_weights_uri(api, trained):
    model = raw_call(api, "models.get_by_id", {"model": trained["model"]})["model"]
    assert model["name"] == trained["model_name"]
    assert model["framework"] == "PyTorch"
    assert model["labels"] == {"background": 0, "cat": 1}
    assert model["task"] == trained["task"]
    # Without an output_uri the SDK registers the local file.
    assert model["uri"].startswith("file://") and model["uri"].endswith("weights.bin"), model["uri"]
    assert trained["url"] == model["uri"]
    project = raw_call(api, "projects.get_by_id", {"project": model["project"]})["project"]
    assert project["name"] == trained["project"]

    task = raw_call(api, "tasks.get_by_id", {"task": trained["task"]})["task"]
    outputs = [m["model"] for m in task["models"]["output"]]
    assert trained["model"] in outputs, task["models"]


def test_metadata_set_and_read_back(api, trained):
    # What the SDK read back in the script: a map keyed by key.
    assert trained["metadata"]["accuracy"] == {"key": "accuracy", "type": "float", "value": "0.93"}
    assert trained["metadata"]["epochs"]["value"] == "12"
    model = raw_call(api, "models.get_by_id", {"model": trained["model"]})["model"]
    assert set(model["metadata"]) == {"accuracy", "epochs"}
    # The typed SDK view parses the same reply.
    typed = api.models.get_by_id(model=trained["model"])
    assert typed.metadata["epochs"]["type"] == "int"


def test_publish_from_sdk_readies_model_only(api, trained):
    assert trained["published_before"] is False
    assert trained["published_after"] is True
    model = raw_call(api, "models.get_by_id", {"model": trained["model"]})["model"]
    assert model["ready"] is True
    # Model.publish sends publish_task=false: the task is closed, not published.
    task = raw_call(api, "tasks.get_by_id", {"task": trained["task"]})["task"]
    assert task["status"] != "published", task["status"]
    code = raw_call(api, "models.set_ready", {"model": trained["model"]}, expect_ok=False)
    assert code == (400, 203)


def test_input_model_and_query_models(api, trained, run_sdk):
    code = f"""
import json
from clearml import Model, InputModel

found = Model.query_models(project_name={trained['project']!r}, model_name={trained['model_name']!r},
                           tags=["e2e"], only_published=True)
by_meta = Model.query_models(project_name={trained['project']!r}, metadata={{"epochs": "12"}})
none = Model.query_models(project_name={trained['project']!r}, metadata={{"epochs": "13"}})
im = InputModel(model_id={trained['model']!r})
print("RESULT " + json.dumps({{
    "found": [m.id for m in found], "by_meta": [m.id for m in by_meta], "none": [m.id for m in none],
    "name": im.name, "url": im.url, "labels": im.labels, "framework": im.framework,
    "published": im.published, "accuracy": im.get_metadata("accuracy"),
    "casted": im.get_metadata_casted("epochs"),
}}))
"""
    out = sdk_result(run_sdk(code))
    assert out["found"] == [trained["model"]]
    assert out["by_meta"] == [trained["model"]]
    assert out["none"] == []
    assert out["name"] == trained["model_name"]
    assert out["url"] == trained["url"]
    assert out["labels"] == {"background": 0, "cat": 1}
    assert out["framework"] == "PyTorch"
    assert out["published"] is True
    assert out["accuracy"] == "0.93"
    assert out["casted"] == 12


def test_input_model_connected_to_a_task(api, trained, run_sdk, make_name):
    project = make_name("project")
    code = f"""
import json
from clearml import Task, InputModel

task = Task.init(project_name={project!r}, task_name="consumer", auto_connect_frameworks=False,
                 auto_resource_monitoring=False, auto_connect_streams=False)
model = InputModel(model_id={trained['model']!r})
model.connect(task, name="pretrained")
task.close()
print("RESULT " + json.dumps({{"task": task.id}}))
"""
    task_id = sdk_result(run_sdk(code))["task"]
    task = raw_call(api, "tasks.get_by_id", {"task": task_id})["task"]
    assert {"name": "pretrained", "model": trained["model"]} in [
        {"name": m["name"], "model": m["model"]} for m in task["models"]["input"]], task["models"]
    # A model used as an input model is not deleted without force.
    code = raw_call(api, "models.delete", {"model": trained["model"]}, expect_ok=False)
    assert code == (400, 205)


def test_api_client_model_lifecycle(api, make_name):
    """The APIClient's typed requests and replies for the rest of the service."""
    name = make_name("model")
    pid = api.projects.create(name=make_name("project")).id
    mid = api.models.create(name=name, uri="file:///tmp/e2e.bin", project=pid, labels={"a": 1},
                            tags=["x"]).id
    got = api.models.get_by_id(model=mid)
    assert got.name == name and got.ready is False and got.labels == {"a": 1}

    api.models.edit(model=mid, comment="edited", framework="Keras")
    listed = api.models.get_all(project=[pid], only_fields=["id", "comment", "framework"])
    assert [(m.id, m.comment, m.framework) for m in listed] == [(mid, "edited", "Keras")]
    assert "Keras" in api.models.get_frameworks(projects=[pid]).frameworks

    api.models.add_or_update_metadata(model=mid, metadata=[{"key": "k", "type": "str", "value": "v"}])
    assert api.models.get_by_id(model=mid).metadata == {"k": {"key": "k", "type": "str", "value": "v"}}
    api.models.delete_metadata(model=mid, keys=["k"])
    assert not api.models.get_by_id(model=mid).metadata

    api.models.archive_many(ids=[mid])
    assert "archived" in api.models.get_by_id(model=mid).system_tags
    api.models.unarchive_many(ids=[mid])

    target = make_name("moved")
    res = raw_call(api, "models.move", {"ids": [mid], "project_name": target})
    assert api.models.get_by_id(model=mid).project == res["project_id"]

    api.models.set_ready(model=mid)
    assert api.models.get_by_id(model=mid).ready is True

    ex = raw_call(api, "models.get_all_ex", {"id": [mid], "only_fields": ["name", "project.name"], "include_stats": True})
    assert ex["models"][0]["project"] == {"id": res["project_id"], "name": target}
    assert ex["models"][0]["stats"] == {"labels_count": 1}

    deleted = raw_call(api, "models.delete", {"model": mid})
    assert deleted == {"deleted": True, "url": "file:///tmp/e2e.bin"}
    with pytest.raises(APIError):
        api.models.get_by_id(model=mid)
