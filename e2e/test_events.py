"""events.* through the real clearml SDK (issue 6).

A script runs ``Task.init`` with console capture, reports 100 iterations of
two scalar series, text, console prints, a plotly figure, a single value, a
histogram and three debug images through ``Logger``, then reads everything
back with the SDK's own readers (``get_reported_scalars``,
``get_last_scalar_metrics``, ``get_reported_console_output``,
``get_reported_plots``, ``get_reported_single_values``,
``get_debug_samples``) and prints what it got. The test compares
it with what was reported, then checks the stored events with raw calls.
"""

from __future__ import annotations

import json

import pytest

ITERS = 100


def loss(i: int) -> float:
    return 1.0 / (i + 1)


def val_loss(i: int) -> float:
    return 0.5 + ((i * 37) % 11) / 10.0


REPORT_SCRIPT = """
import json, time
from clearml import Task

task = Task.init(project_name={project!r}, task_name={name!r}, auto_connect_frameworks=False,
                 auto_resource_monitoring=False, auto_connect_streams=True)
logger = task.get_logger()
for i in range({iters}):
    logger.report_scalar("loss", "train", value=1.0 / (i + 1), iteration=i)
    logger.report_scalar("loss", "val", value=0.5 + ((i * 37) % 11) / 10.0, iteration=i)
logger.report_text("hello from report_text")
print("console line captured by the SDK")
logger.report_plotly(title="plotly", series="fig", iteration=0,
                     figure={{"data": [{{"type": "scatter", "x": [1, 2, 3], "y": [4, 5, 6]}}], "layout": {{"title": "fig"}}}})
logger.report_single_value("accuracy", 0.93)
logger.report_histogram(title="hist", series="h", values=[3, 1, 4, 1, 5], iteration=2)
import numpy as np
for i in range(3):
    logger.report_image("img", "s", iteration=i, image=np.full((8, 8, 3), 40 * i, dtype=np.uint8))
logger.flush()
task.flush(wait_for_uploads=True)

def wait(read, ok, what):
    deadline = time.time() + 60
    while True:
        value = read()
        if ok(value) or time.time() > deadline:
            return value
        time.sleep(0.5)

scalars = wait(task.get_reported_scalars,
               lambda s: len(s.get("loss", {{}}).get("train", {{}}).get("x", [])) == {iters}, "scalars")
console = wait(lambda: task.get_reported_console_output(20),
               lambda c: any("console line captured" in x for x in c) and any("hello from report_text" in x for x in c),
               "console")
plots = wait(task.get_reported_plots, lambda p: len(p) >= 2, "plots")
single = wait(task.get_reported_single_values, lambda v: "accuracy" in v, "single values")
images = wait(lambda: task.get_debug_samples("img", "s"), lambda v: len(v) == 3, "debug images")
task.reload()
last = task.get_last_scalar_metrics()
out = {{"id": task.id, "images": [{{"iter": e.get("iter"), "url": e.get("url")}} for e in images], "scalars": scalars, "last": last, "console": console, "single": single,
       "plots": [{{"metric": p.get("metric"), "variant": p.get("variant"), "iter": p.get("iter"),
                  "plot_str": p.get("plot_str")}} for p in plots]}}
task.close()
print("RESULT " + json.dumps(out))
"""


def result_of(proc) -> dict:
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no RESULT line in output:\n{proc.stdout}\n{proc.stderr}"
    return json.loads(lines[-1][len("RESULT "):])


def raw_call(api, endpoint: str, payload: dict) -> dict:
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    body = res.json()
    assert res.status_code == 200 and body["meta"]["result_code"] == 200, f"{endpoint} {payload} -> {body['meta']}"
    return body["data"]


@pytest.fixture(scope="module")
def reported(clearml_env, tmp_path_factory):
    import os
    import secrets
    import subprocess
    import sys

    token = secrets.token_hex(4)
    workdir = tmp_path_factory.mktemp("events-report")
    script = workdir / "report.py"
    script.write_text(REPORT_SCRIPT.format(project=f"e2e-events-{token}", name=f"e2e events {token}", iters=ITERS))
    env = dict(os.environ)
    env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.run([sys.executable, str(script)], cwd=str(workdir), env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, f"script failed:\n{proc.stdout}\n{proc.stderr}"
    return result_of(proc)


def test_reported_scalars_read_back_exactly(reported):
    scalars = reported["scalars"]
    assert sorted(scalars) == ["loss"], f"single values or plots leaked into the scalar histogram: {sorted(scalars)}"
    train, val = scalars["loss"]["train"], scalars["loss"]["val"]
    assert train["x"] == list(range(ITERS)) and val["x"] == list(range(ITERS))
    assert train["y"] == pytest.approx([loss(i) for i in range(ITERS)], rel=1e-12)
    assert val["y"] == pytest.approx([val_loss(i) for i in range(ITERS)], rel=1e-12)


def test_last_scalar_metrics(reported):
    last = reported["last"]["loss"]
    assert last["train"] == pytest.approx({"last": loss(ITERS - 1), "min": loss(ITERS - 1), "max": loss(0)})
    vals = [val_loss(i) for i in range(ITERS)]
    assert last["val"] == pytest.approx({"last": vals[-1], "min": min(vals), "max": max(vals)})


def test_console_output(reported):
    text = "\n".join(reported["console"])
    assert "hello from report_text" in text
    assert "console line captured by the SDK" in text


def test_reported_plots(reported):
    by_name = {(p["metric"], p["variant"]): p for p in reported["plots"]}
    assert ("plotly", "fig") in by_name and ("hist", "h") in by_name, f"plots: {sorted(by_name)}"
    fig = json.loads(by_name[("plotly", "fig")]["plot_str"])
    assert fig["data"][0]["x"] == [1, 2, 3] and fig["data"][0]["y"] == [4, 5, 6]
    assert by_name[("hist", "h")]["iter"] == 2


def test_debug_images(reported):
    images = reported["images"]
    assert sorted(e["iter"] for e in images) == [0, 1, 2], images
    assert all(e["url"] and "/img/s/" in e["url"].replace("%20", " ") for e in images), images


def test_single_value(reported):
    assert reported["single"] == {"accuracy": pytest.approx(0.93)}


def test_stored_events(api, reported):
    task = reported["id"]
    got = raw_call(api, "tasks.get_by_id", {"task": task})["task"]
    assert got["last_iteration"] == ITERS - 1
    names = {(m["metric"], m["variant"]) for v in got["last_metrics"].values() for m in v.values()}
    assert {("loss", "train"), ("loss", "val"), ("Summary", "accuracy")} <= names
    # every scalar event, paged through get_task_events as the SDK's get_all_reported_scalars does
    events, scroll = [], None
    while True:
        page = raw_call(api, "events.get_task_events", {"task": task, "event_type": "training_stats_scalar",
                                                        "batch_size": 64, "scroll_id": scroll})
        events += page["events"]
        scroll = page["scroll_id"]
        if page["returned"] < 64:
            break
    assert len(events) == 2 * ITERS + 1
    # downsampled histogram and raw points
    hist = raw_call(api, "events.scalar_metrics_iter_histogram", {"task": task, "samples": 10})
    assert hist["loss"]["train"]["x"] == list(range(0, ITERS, 10))
    raw = raw_call(api, "events.scalar_metrics_iter_raw", {"task": task, "metric": {"metric": "loss", "variants": ["train"]},
                                                         "count_total": True})
    assert raw["total"] == ITERS and raw["variants"]["train"]["iter"] == list(range(ITERS))
    # log download as text
    res = api.session.send_request(service="events", action="download_task_log",
                                   json={"task": task, "line_type": "text", "line_format": "{level}|{msg}"})
    assert res.status_code == 200 and "hello from report_text" in res.text


def test_bad_batches(api, reported):
    task = reported["id"]
    good = json.dumps({"type": "log", "task": task, "msg": "good line", "level": "INFO"})
    body = "\n".join([good, "{not json", json.dumps({"type": "nope", "task": task}),
                      json.dumps({"type": "training_stats_scalar", "task": task, "metric": "m", "variant": "v", "value": "x"})])
    res = api.session.send_request(service="events", action="add_batch", data=body,
                                   headers={"Content-Type": "application/json-lines"})
    data = res.json()["data"]
    assert res.status_code == 200 and data["added"] == 1 and data["errors"] == 3, data
    res = api.session.send_request(service="events", action="add_batch", data="{not json",
                                   headers={"Content-Type": "application/json-lines"})
    assert res.status_code == 400 and res.json()["meta"]["result_subcode"] == 131
