"""The everyday SDK flows of issue 7 (flows 1, 2, 3 and 5), with the real clearml SDK.

Flow 1 (the training script e2e/flows/train.py) runs once per session in the
``trained`` fixture; flow 1's test checks what the server stored, flow 2
reads it back through the SDK in another process, flow 3 reruns, clones and
enqueues, flow 5 continues, fails and publishes tasks. The agent flow (4) is
in test_agent.py. Expected values are recomputed from the helpers of
train.py, so every check compares exact data.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from flows import train as script
from flows.harness import call, call_raw, get_task, parse_marker, tail
from flows.harness import flow_project, flow_runner, trained  # noqa: F401 (fixtures)

FULL_ITERS = 200


def approx(x):
    return pytest.approx(x, rel=1e-9, abs=1e-12)


def expected_last_metrics(lr: float, iters: int, first: int = 0) -> dict:
    """{metric: {variant: {last, min, max}}} of a run of ``iters`` iterations."""
    out = {}
    for metric in script.METRICS:
        for variant in script.VARIANTS:
            values = [script.scalar_value(metric, variant, i, lr) for i in range(iters)]
            out.setdefault(metric, {})[variant] = {"last": values[-1], "min": min(values), "max": max(values)}
    return out


def last_metrics_by_name(task: dict) -> dict:
    """A task's ``last_metrics`` regrouped by metric and variant names."""
    out = {}
    for variants in (task.get("last_metrics") or {}).values():
        for entry in variants.values():
            out.setdefault(entry["metric"], {})[entry["variant"]] = entry
    return out


def histogram(api, task_id: str) -> dict:
    return call(api, "events.scalar_metrics_iter_histogram", task=task_id, key="iter")


def assert_scalar_series(hist: dict, lr_by_iter: dict, what: str) -> None:
    """Every metric/variant of ``hist`` holds exactly the iterations of ``lr_by_iter`` ({iter: (i, lr)})."""
    for metric in script.METRICS:
        for variant in script.VARIANTS:
            series = (hist.get(metric) or {}).get(variant)
            assert series, f"{what}: no series {metric}/{variant} in the scalar histogram: {sorted(hist)}"
            assert list(series["x"]) == sorted(lr_by_iter), (
                f"{what}: {metric}/{variant} iterations {series['x'][:5]}..{series['x'][-5:]} "
                f"({len(series['x'])} points), expected {len(lr_by_iter)}")
            want = [script.scalar_value(metric, variant, *lr_by_iter[x]) for x in sorted(lr_by_iter)]
            assert list(series["y"]) == approx(want), f"{what}: {metric}/{variant} values differ"


def sdk(flow_runner, code: str, label: str, timeout: float = 180) -> dict:
    """Run SDK code in a fresh process; it must print ``FLOW_OUT {json}``."""
    path = flow_runner.workdir(label) / "snippet.py"
    path.write_text(code)
    proc = subprocess.run([sys.executable, str(path)], cwd=str(path.parent), env=flow_runner.env(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    out = parse_marker(proc.stdout, "FLOW_OUT")
    assert proc.returncode == 0 and out is not None, (
        f"SDK snippet {label} exited {proc.returncode}\n--- stdout ---\n{tail(proc.stdout)}\n"
        f"--- stderr ---\n{tail(proc.stderr)}")
    return out


# --------------------------------------------------------------------------- flow 1


def test_flow1_training_script_stores_everything(api, trained, clearml_env):
    """Task.init ... task.close(): the server holds the task, its parameters, metrics, artifacts and model."""
    tid = trained.task_id
    task = get_task(api, tid)
    assert task["name"] == trained.task_name
    assert task["status"] == "completed", f"close() must complete the task: {task['status']} {task.get('status_reason')}"
    assert task["type"] == "training"
    assert "development" in task.get("system_tags", [])
    project = call(api, "projects.get_by_id", project=task["project"])["project"]
    assert project["name"] == trained.project

    # task.connect(params) and connect_configuration
    general = task["hyperparams"]["General"]
    assert {k: general[k]["value"] for k in ("lr", "iterations", "sleep_per_iter", "label")} == {
        "lr": "0.1", "iterations": "200", "sleep_per_iter": "0.0", "label": "baseline"}
    cfg = task["configuration"][script.CONFIG_NAME]
    assert cfg["type"] == "dictionary" and "relu" in cfg["value"], cfg

    # the standalone script is stored whole, which is what the agent later runs
    s = task["script"]
    assert s.get("entry_point") == "train.py", s.get("entry_point")
    assert not s.get("repository"), f"no git repository expected, got {s.get('repository')!r}"
    assert "def scalar_value(" in (s.get("diff") or ""), "script.diff must hold the whole script"
    assert "clearml" in json.dumps(s.get("requirements") or {}), "requirements (pip) not stored"

    # scalars: last_iteration and last_metrics derived from the 800 scalar events
    assert task["last_iteration"] == FULL_ITERS - 1
    got = last_metrics_by_name(task)
    for metric, variants in expected_last_metrics(0.1, FULL_ITERS).items():
        for variant, want in variants.items():
            entry = got.get(metric, {}).get(variant)
            assert entry, f"last_metrics lacks {metric}/{variant}: {sorted(got)}"
            assert entry["value"] == approx(want["last"]), (metric, variant, entry)
            assert entry["min_value"] == approx(want["min"]) and entry["max_value"] == approx(want["max"]), entry

    # three artifacts, each stored on the built-in file server
    arts = {a["key"]: a for a in task["execution"]["artifacts"]}
    assert set(arts) == {"summary", "notes", "folder"}, sorted(arts)
    for key, a in arts.items():
        assert a["uri"].startswith(clearml_env.files_host + "/"), (key, a["uri"])
        assert a.get("hash") and a.get("content_size", 0) > 0, (key, a)
    assert arts["summary"]["type"] == "dict" and arts["folder"]["type"] == "archive"

    # the output model, uploaded to the file server and linked to the task
    outputs = [m["model"] for m in task["models"]["output"]]
    assert trained.model_id in outputs, f"models.output {task['models']['output']} lacks {trained.model_id}"
    model = call(api, "models.get_by_id", model=trained.model_id)["model"]
    assert model["name"] == script.MODEL_NAME and model["task"] == tid
    assert model["framework"].lower() == "custom"
    assert model["labels"] == script.MODEL_LABELS
    assert model["uri"].startswith(clearml_env.files_host + "/") and model["uri"].endswith("weights.bin"), model["uri"]
    assert model["ready"] is False


# --------------------------------------------------------------------------- flow 2


@pytest.fixture(scope="module")
def readback(trained, flow_runner):
    """Flow 2: readback.py in a fresh process."""
    return flow_runner.run("readback.py", args=[trained.task_id], marker="FLOW_READBACK").result


def _no_error(readback: dict, *names: str) -> None:
    errors = {n: readback["errors"][n] for n in names if n in readback["errors"]}
    assert not errors, "SDK reads failed:\n" + "\n".join(f"{k}: {v}" for k, v in errors.items())


def test_flow2_task_parameters_and_configuration(readback, trained):
    _no_error(readback, "parameters", "configuration")
    assert readback["id"] == trained.task_id and readback["status"] == "completed"
    params = readback["parameters"]
    assert params["General/lr"] == "0.1" and params["General/iterations"] == "200", params
    assert params["General/label"] == "baseline"
    assert readback["configuration"] == script.config_object("baseline")


def test_flow2_scalars(readback):
    _no_error(readback, "scalars", "all_scalars", "last_scalars", "last_iteration")
    scalars = readback["scalars"]
    assert set(scalars) >= set(script.METRICS), sorted(scalars)
    assert "Summary" not in scalars or script.SINGLE_VALUE_NAME not in scalars["Summary"], (
        "single values must not appear in the scalar histogram")
    assert_scalar_series(scalars, {i: (i, 0.1) for i in range(FULL_ITERS)}, "get_reported_scalars")
    # every raw event (events.get_task_events), in any order
    raw = readback["all_scalars"]
    for metric in script.METRICS:
        for variant in script.VARIANTS:
            points = sorted(zip(raw[metric][variant]["x"], raw[metric][variant]["y"]))
            assert [x for x, _ in points] == list(range(FULL_ITERS)), f"get_all_reported_scalars {metric}/{variant}"
            assert [y for _, y in points] == approx(
                [script.scalar_value(metric, variant, i, 0.1) for i in range(FULL_ITERS)])
    assert raw.get("Summary", {}).get(script.SINGLE_VALUE_NAME, {}).get("y") == approx([script.SINGLE_VALUE]), (
        "the single value is a scalar event too")
    want = expected_last_metrics(0.1, FULL_ITERS)
    for metric, variants in want.items():
        for variant, w in variants.items():
            got = readback["last_scalars"][metric][variant]
            assert got == {k: approx(v) for k, v in w.items()}, (metric, variant, got)
    assert readback["last_iteration"] == FULL_ITERS - 1


def test_flow2_console_text_plots_single_values(readback):
    _no_error(readback, "console", "single_values", "plots")
    console = "\n".join(readback["console"])
    for n in range(script.CONSOLE_LINES):
        assert script.console_line(n) in console, f"console line {n + 1} missing from get_reported_console_output"
    assert script.TEXT_MESSAGE in console, "report_text message missing from the task log"
    assert "ClearML Task: created new task id=" in console

    assert readback["single_values"] == {script.SINGLE_VALUE_NAME: approx(script.SINGLE_VALUE)}

    plots = [p for p in readback["plots"] if p["metric"] == script.PLOT_TITLE]
    assert len(plots) == 1, readback["plots"]
    assert plots[0]["variant"] == script.PLOT_SERIES and plots[0]["iter"] == 0
    fig = json.loads(plots[0]["plot_str"])
    assert fig["data"][0]["y"] == script.plot_figure()["data"][0]["y"]


def test_flow2_artifacts_byte_identical(readback, trained):
    _no_error(readback, "artifacts")
    arts = readback["artifacts"]
    assert set(arts) == {"summary", "notes", "folder"}, sorted(arts)
    for name, a in arts.items():
        assert "get_error" not in a and "local_copy_error" not in a, (name, a)

    summary = arts["summary"]
    assert summary["get"] == script.artifact_dict(trained.run.result["params"])
    assert json.loads(Path(summary["local_copy"]).read_text("utf-8")) == summary["get"]

    notes = arts["notes"]
    assert Path(notes["local_copy"]).read_bytes() == script.NOTES_TEXT.encode("utf-8")

    folder = Path(arts["folder"]["local_copy"])
    if folder.is_file():  # a zip when not extracted
        with zipfile.ZipFile(folder) as z:
            files = {n: z.read(n) for n in z.namelist() if not n.endswith("/")}
    else:
        files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    assert files == script.FOLDER_FILES, sorted(files)


def test_flow2_model_query_and_download(readback, trained):
    _no_error(readback, "output_models", "query_models", "query_models_none")
    models = readback["output_models"]
    assert [m["id"] for m in models] == [trained.model_id], models
    m = models[0]
    assert m["name"] == script.MODEL_NAME and m["task"] == trained.task_id and m["published"] is False
    assert m["labels"] == script.MODEL_LABELS
    assert Path(m["local_copy"]).read_bytes() == script.weights_bytes(), "downloaded weights differ"
    # the agent flow may have added its own "flows model" to the project
    found = readback["query_models"]
    assert trained.model_id in [q["id"] for q in found], found
    assert all(q["name"] == script.MODEL_NAME for q in found), found
    assert readback["query_models_none"] == [], "a model name that matches nothing must find nothing"


def test_flow2_debug_images_downloadable(readback, clearml_env):
    _no_error(readback, "debug_images")
    images = sorted(readback["debug_images"], key=lambda s: s["iter"])
    assert [s["iter"] for s in images] == list(script.IMAGE_ITERATIONS), images
    for s in images:
        assert s["url"].startswith(clearml_env.files_host + "/"), s["url"]
        assert s["local_copy"], f"StorageManager could not download {s['url']}"
        assert Path(s["local_copy"]).read_bytes() == script.png_bytes(s["iter"]), f"image {s['url']} differs"


# --------------------------------------------------------------------------- flow 3


def test_flow3_rerun_after_full_run_creates_new_task(api, trained, flow_runner):
    """The previous run has artifacts and a model: the SDK must not reuse it, and it stays intact."""
    rerun = flow_runner.train(trained.project, trained.task_name, mode="minimal", iters=5)
    new_id = rerun.result["task_id"]
    assert new_id != trained.task_id, "a task with artifacts and output models must not be reused"
    assert "ClearML Task: created new task" in rerun.proc.stdout + rerun.proc.stderr
    new = get_task(api, new_id)
    assert new["status"] == "completed" and new["last_iteration"] == 4
    old = get_task(api, trained.task_id)
    assert old["status"] == "completed" and old["last_iteration"] == FULL_ITERS - 1
    assert len(old["execution"]["artifacts"]) == 3


def test_flow3_rerun_reuses_failed_dev_task(api, flow_runner, flow_project):
    """A failed dev task without outputs is reused: reset (events cleared) and run again under the same id."""
    name = "reuse after failure"
    first = flow_runner.train(flow_project, name, mode="minimal", iters=8, fail=1, check=False)
    assert first.proc.returncode != 0 and first.result, "the failing run must exit non-zero: " + first.describe()
    tid = first.result["task_id"]
    failed = get_task(api, tid)
    assert failed["status"] == "failed", f"an uncaught exception must fail the task: {failed['status']}"
    assert "boom" in (failed.get("status_reason") or ""), failed.get("status_reason")

    second = flow_runner.train(flow_project, name, mode="minimal", iters=5, lr=0.2)
    assert second.result["task_id"] == tid, "the SDK must reuse (reset) its failed development task"
    assert "overwriting (reusing) task id=" + tid in second.proc.stdout + second.proc.stderr
    task = get_task(api, tid)
    assert task["status"] == "completed" and task["last_iteration"] == 4
    assert task["hyperparams"]["General"]["lr"]["value"] == "0.2"
    assert_scalar_series(histogram(api, tid), {i: (i, 0.2) for i in range(5)}, "reused task (reset must clear events)")


def test_flow3_rerun_after_completed_run_creates_new_task(api, flow_runner, flow_project):
    """Trove refuses tasks.reset of a completed task without force (rulings), so the SDK starts a new task."""
    name = "rerun completed"
    first = flow_runner.train(flow_project, name, mode="minimal", iters=3)
    second = flow_runner.train(flow_project, name, mode="minimal", iters=4)
    assert second.result["task_id"] != first.result["task_id"]
    old = get_task(api, first.result["task_id"])
    assert old["status"] == "completed" and old["last_iteration"] == 2, "the completed run must stay untouched"
    assert_scalar_series(histogram(api, first.result["task_id"]), {i: (i, 0.1) for i in range(3)}, "old task")


def test_flow3_clone_with_changed_parameters_and_enqueue(api, trained, flow_runner, flow_project):
    queue_name = f"{flow_project} queue"
    qid = call(api, "queues.create", name=queue_name)["id"]
    out = sdk(flow_runner, f"""
import json
from clearml import Task
clone = Task.clone(source_task={trained.task_id!r}, name="flows clone")
clone.update_parameters({{"General/lr": 0.5, "General/iterations": 7}})
res = Task.enqueue(clone, queue_name={queue_name!r})
print("FLOW_OUT " + json.dumps({{"id": clone.id, "queued": res.queued}}))
""", "clone-enqueue")
    cid = out["id"]
    assert cid != trained.task_id
    assert out["queued"] == 1, out

    clone = get_task(api, cid)
    source = get_task(api, trained.task_id)
    assert clone["name"] == "flows clone"
    assert clone["status"] == "queued", clone["status"]
    assert clone["parent"] == trained.task_id and clone["project"] == source["project"]
    assert clone["execution"].get("queue") == qid
    general = clone["hyperparams"]["General"]
    assert general["lr"]["value"] == "0.5" and general["iterations"]["value"] == "7"
    assert general["label"]["value"] == "baseline", "unchanged parameters are copied"
    assert clone["configuration"][script.CONFIG_NAME]["value"] == source["configuration"][script.CONFIG_NAME]["value"]
    assert clone["script"]["diff"] == source["script"]["diff"]
    assert clone["script"]["entry_point"] == "train.py"
    assert not clone.get("last_metrics") and not clone.get("last_iteration")
    assert not clone["models"]["output"], "output models are not cloned"
    assert not [a for a in clone["execution"].get("artifacts") or [] if a.get("mode", "output") == "output"]
    assert "development" not in clone.get("system_tags", [])

    queue = call(api, "queues.get_by_id", queue=qid)["queue"]
    assert [e["task"] for e in queue["entries"]] == [cid]
    # leave the queue empty for nobody: dequeue puts the clone back to created
    call(api, "tasks.dequeue", task=cid)
    assert get_task(api, cid)["status"] == "created"


# --------------------------------------------------------------------------- flow 5


def test_flow5_continue_last_task(api, flow_runner, flow_project):
    name = "continue me"
    first = flow_runner.train(flow_project, name, mode="minimal", iters=20)
    tid = first.result["task_id"]
    cont = flow_runner.train(flow_project, name, mode="minimal", iters=10, lr=0.3, **{"continue": tid})
    assert cont.result["task_id"] == tid, "continue_last_task=<id> must continue that task"
    assert cont.result["first_iter"] == 20, "the SDK offsets iterations by last_iteration + 1"
    task = get_task(api, tid)
    assert task["status"] == "completed"
    assert task["last_iteration"] == 29
    want = {i: (i, 0.1) for i in range(20)}
    want.update({20 + i: (i, 0.3) for i in range(10)})
    assert_scalar_series(histogram(api, tid), want, "continued task")


def test_flow5_mark_failed(api, flow_runner, flow_project):
    out = sdk(flow_runner, f"""
import json
from clearml import Task
task = Task.init(project_name={flow_project!r}, task_name="mark failed", reuse_last_task_id=False,
                 auto_connect_frameworks=False, auto_resource_monitoring=False)
task.get_logger().report_scalar("loss", "train", value=1.5, iteration=0)
task.flush(wait_for_uploads=True)
task.mark_failed(status_reason="flows: giving up", status_message="marked by the script")
print("FLOW_OUT " + json.dumps({{"id": task.id, "status": str(task.get_status())}}))
""", "mark-failed")
    task = get_task(api, out["id"])
    assert out["status"] == "failed", out
    assert task["status"] == "failed", "the exit handler must not overwrite a failed status"
    assert task["status_reason"] == "flows: giving up"
    assert task["status_message"] == "marked by the script"
    assert task["last_iteration"] == 0


def test_flow5_publish_completed_task_with_model(api, flow_runner, flow_project):
    run = flow_runner.train(flow_project, "publish me", mode="full", iters=3)
    tid, mid = run.result["task_id"], run.result["model_id"]
    assert get_task(api, tid)["status"] == "completed"
    out = sdk(flow_runner, f"""
import json
from clearml import Model, Task
task = Task.get_task(task_id={tid!r})
task.publish()
task.reload()
print("FLOW_OUT " + json.dumps({{"status": str(task.get_status()), "model_published": Model({mid!r}).published}}))
""", "publish")
    assert out == {"status": "published", "model_published": True}, out
    task = get_task(api, tid)
    assert task["status"] == "published" and task.get("published")
    model = call(api, "models.get_by_id", model=mid)["model"]
    assert model["ready"] is True, "publishing a task publishes its output model"
    status, meta, _ = call_raw(api, "tasks.reset", task=tid)
    assert status == 400 and meta["result_subcode"] == 110, (
        f"a published task cannot be reset: {status} {meta.get('result_subcode')} {meta.get('result_msg')}")
