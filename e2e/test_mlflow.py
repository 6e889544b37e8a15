"""MLflow's own client (``mlflow`` from PyPI) against Trove's MLflow API.

Experiments, runs, params, metrics over 1,000 steps, tags, nested runs,
search_runs with the filter language, delete/restore, and one model seen
through both protocols: an MLflow run read with the clearml SDK, a ClearML
task read with MlflowClient. The client gets the admin's access key and
secret as HTTP Basic credentials (MLFLOW_TRACKING_USERNAME/PASSWORD).
"""

from __future__ import annotations

import math
import os

import mlflow
import pytest
from mlflow import MlflowClient
from mlflow.exceptions import MlflowException


@pytest.fixture
def client(trove, clearml_env):
    os.environ["MLFLOW_TRACKING_USERNAME"] = trove.access_key
    os.environ["MLFLOW_TRACKING_PASSWORD"] = trove.secret_key
    os.environ["MLFLOW_HTTP_REQUEST_TIMEOUT"] = "30"
    os.environ["MLFLOW_HTTP_REQUEST_MAX_RETRIES"] = "1"
    mlflow.set_tracking_uri(trove.api_url)
    yield MlflowClient(tracking_uri=trove.api_url)
    while mlflow.active_run():
        mlflow.end_run()


def test_experiments(client, make_name):
    name = make_name("exp")
    exp_id = client.create_experiment(name, tags={"team": "vision"})
    exp = client.get_experiment(exp_id)
    assert exp.name == name and exp.tags == {"team": "vision"} and exp.lifecycle_stage == "active"
    assert client.get_experiment_by_name(name).experiment_id == exp_id
    with pytest.raises(MlflowException, match="RESOURCE_ALREADY_EXISTS"):
        client.create_experiment(name)
    client.rename_experiment(exp_id, name + "-renamed")
    assert client.get_experiment(exp_id).name == name + "-renamed"
    client.delete_experiment(exp_id)
    assert client.get_experiment(exp_id).lifecycle_stage == "deleted"
    deleted = client.search_experiments(view_type=mlflow.entities.ViewType.DELETED_ONLY)
    assert exp_id in [e.experiment_id for e in deleted]
    client.restore_experiment(exp_id)
    found = client.search_experiments(filter_string=f"name = '{name}-renamed'")
    assert [e.experiment_id for e in found] == [exp_id]
    assert client.get_experiment("0").name == "Default"


def test_runs_params_metrics_tags(client, make_name):
    mlflow.set_experiment(make_name("runs"))
    with mlflow.start_run(run_name="train") as run:
        mlflow.log_params({"lr": 0.01, "opt/name": "adam", "empty": ""})
        mlflow.set_tags({"team": "vision", "a/b": "c"})
        for step in range(1000):
            mlflow.log_metric("loss", 1.0 / (step + 1), step=step)
        mlflow.log_metric("nan", float("nan"))
        with pytest.raises(MlflowException, match="INVALID_PARAMETER_VALUE"):
            mlflow.log_param("lr", 0.02)  # params are immutable
    got = client.get_run(run.info.run_id)
    assert got.info.status == "FINISHED" and got.info.run_name == "train"
    assert got.data.params == {"lr": "0.01", "opt/name": "adam", "empty": ""}
    assert got.data.tags["team"] == "vision" and got.data.tags["a/b"] == "c"
    assert got.data.metrics["loss"] == pytest.approx(0.001) and math.isnan(got.data.metrics["nan"])
    history = client.get_metric_history(run.info.run_id, "loss")
    assert [m.step for m in history] == list(range(1000))
    assert history[0].value == 1.0
    client.delete_tag(run.info.run_id, "team")
    assert "team" not in client.get_run(run.info.run_id).data.tags


def test_nested_runs_search_and_delete(client, make_name):
    exp = mlflow.set_experiment(make_name("search"))
    with mlflow.start_run(run_name="parent") as parent:
        for i, lr in enumerate(["0.1", "0.01", "0.001"]):
            with mlflow.start_run(run_name=f"child-{i}", nested=True):
                mlflow.log_param("lr", lr)
                mlflow.log_metric("acc", 0.5 + i / 10)
    ids = [exp.experiment_id]
    children = mlflow.search_runs(ids, filter_string=f"tags.mlflow.parentRunId = '{parent.info.run_id}'",
                                  order_by=["metrics.acc DESC"], output_format="list")
    assert [r.info.run_name for r in children] == ["child-2", "child-1", "child-0"]
    good = mlflow.search_runs(ids, filter_string="metrics.acc > 0.55 and params.lr LIKE '0.0%'", output_format="list")
    assert sorted(r.info.run_name for r in good) == ["child-1", "child-2"]
    finished = mlflow.search_runs(ids, filter_string="attributes.status = 'FINISHED'", output_format="list")
    assert len(finished) == 4
    victim = children[0].info.run_id
    client.delete_run(victim)
    assert victim not in [r.info.run_id for r in mlflow.search_runs(ids, output_format="list")]
    client.restore_run(victim)
    assert victim in [r.info.run_id for r in mlflow.search_runs(ids, output_format="list")]


def test_mlflow_run_read_with_clearml(client, make_name, api):
    from clearml import Task

    mlflow.set_experiment(make_name("cross"))
    with mlflow.start_run(run_name="seen-by-clearml") as run:
        mlflow.log_param("epochs", 3)
        for step in range(5):
            mlflow.log_metric("loss", 1.0 / (step + 1), step=step)
    task = Task.get_task(task_id=run.info.run_id)
    assert task.name == "seen-by-clearml"
    assert task.get_parameters()["Args/epochs"] == "3"
    scalars = task.get_reported_scalars()
    assert scalars["loss"]["loss"]["y"] == pytest.approx([1.0, 0.5, 1 / 3, 0.25, 0.2])
    assert str(api.tasks.get_by_id(task=run.info.run_id).status) == "completed"


def test_clearml_task_read_with_mlflow(client, make_name, api):
    project = api.projects.create(name=make_name("clearml-side"), description="made by the clearml SDK").id
    task_id = api.tasks.create(name="seen-by-mlflow", type="training", project=project,
                               hyperparams={"Args": {"batch": {"section": "Args", "name": "batch", "value": "32"}}}).id
    run = client.get_run(task_id)
    assert run.info.run_name == "seen-by-mlflow" and run.info.experiment_id == project
    assert run.data.params == {"batch": "32"}
    assert client.get_experiment(project).name.startswith("e2e-")
    found = client.search_runs([project], filter_string="params.batch = '32'")
    assert [r.info.run_id for r in found] == [task_id]


def test_mlflow_artifacts_read_with_clearml(client, make_name, tmp_path):
    """Files logged with mlflow are the task's artifacts: the clearml SDK lists and downloads them."""
    from clearml import Task

    src = tmp_path / "src"
    (src / "plots").mkdir(parents=True)
    files = {"weights.bin": bytes(range(256)) * 40, "plots/curve.csv": b"step,loss\n0,1.0\n1,0.5\n"}
    for name, data in files.items():
        (src / name).write_bytes(data)
    mlflow.set_experiment(make_name("artifacts-cross"))
    with mlflow.start_run() as run:
        mlflow.log_artifacts(str(src))
    task = Task.get_task(task_id=run.info.run_id)
    assert sorted(task.artifacts) == sorted(files)
    for name, data in files.items():
        local = task.artifacts[name].get_local_copy()
        with open(local, "rb") as f:
            assert f.read() == data, name


def test_clearml_task_history_read_with_mlflow(client, make_name, api):
    """A task's scalars reported through the ClearML API read as MLflow metric history, the same values."""
    import json

    project = api.projects.create(name=make_name("history-side"), description="reported by clearml").id
    task_id = api.tasks.create(name="history-by-mlflow", type="training", project=project).id
    api.tasks.started(task=task_id)
    lines = []
    for i in range(30):
        lines.append({"type": "training_stats_scalar", "task": task_id, "metric": "loss", "variant": "loss",
                      "iter": i, "value": 1.0 / (i + 1), "timestamp": 1700000000000 + i})
        lines.append({"type": "training_stats_scalar", "task": task_id, "metric": "acc", "variant": "val",
                      "iter": i * 2, "value": i / 30.0, "timestamp": 1700000001000 + i})
    res = api.session.send_request(service="events", action="add_batch", data="\n".join(json.dumps(x) for x in lines),
                                   headers={"Content-Type": "application/json-lines"})
    assert res.status_code == 200, res.text
    loss = client.get_metric_history(task_id, "loss")
    assert [m.step for m in loss] == list(range(30))
    assert [m.value for m in loss] == pytest.approx([1.0 / (i + 1) for i in range(30)])
    assert [m.timestamp for m in loss] == [1700000000000 + i for i in range(30)]
    acc = client.get_metric_history(task_id, "acc/val")
    assert [m.step for m in acc] == [i * 2 for i in range(30)]
    assert acc[-1].value == pytest.approx(29 / 30.0)
    assert client.get_run(task_id).data.metrics["acc/val"] == pytest.approx(acc[-1].value)


def test_traces(client, make_name):
    """A function traced with @mlflow.trace is stored as a trace of the experiment (its spans uploaded
    as traces.json through the artifact proxy), found by mlflow.search_traces with its spans, tagged,
    filtered and deleted."""
    exp_id = mlflow.set_experiment(make_name("traces")).experiment_id

    @mlflow.trace(span_type="TOOL")
    def add(a, b):
        return inner(a) + b

    @mlflow.trace
    def inner(x):
        return x * 10

    assert add(2, 3) == 23
    assert add(1, 1) == 11
    # newer clients export traces in the background: wait for them
    mlflow.flush_trace_async_logging()
    found = mlflow.search_traces(experiment_ids=[exp_id], return_type="list", order_by=["timestamp ASC"])
    assert len(found) == 2
    first = found[0]
    assert first.info.state == "OK" and first.info.experiment_id == exp_id
    spans = {s.name: s for s in first.data.spans}
    assert set(spans) == {"add", "inner"}
    assert spans["add"].inputs == {"a": 2, "b": 3} and spans["add"].outputs == 23
    assert spans["inner"].parent_id == spans["add"].span_id and spans["inner"].outputs == 20

    client.set_trace_tag(first.info.trace_id, "checked", "yes")
    tagged = client.search_traces(experiment_ids=[exp_id], filter_string="tags.checked = 'yes'")
    assert [t.info.trace_id for t in tagged] == [first.info.trace_id]
    ok = mlflow.search_traces(experiment_ids=[exp_id], filter_string="status = 'OK'")
    assert len(ok) == 2 and "trace_id" in ok.columns

    assert client.delete_traces(exp_id, trace_ids=[first.info.trace_id]) == 1
    left = client.search_traces(experiment_ids=[exp_id])
    assert [t.info.trace_id for t in left] == [found[1].info.trace_id]
