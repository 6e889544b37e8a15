"""The training script of the everyday SDK flows (e2e/test_flows.py, e2e/test_agent.py).

A plain script, the way ML teams write them: Task.init, parameters and a
configuration, scalars, text, console prints, a plotly figure, debug images,
a single value, three artifacts and an output model, then close(). It runs
from a directory outside any git repository, so the SDK stores the whole file
in ``script.diff`` and clearml-agent can run a clone of it without git.

Everything it reports is a pure function of its parameters (the helpers
below), so the tests recompute what the server must hold. The helpers import
nothing heavy; the SDK is imported inside main() only, so the tests can
import this file.

Environment (all optional; ignored when clearml-agent runs the task, which
then takes everything from the task itself):
    FLOW_PROJECT, FLOW_TASK   project and task name
    FLOW_MODE                 "full" (default) or "minimal": Task.init,
                              parameters, scalars, close -- nothing else
    FLOW_ITERS                default of the "iterations" parameter
    FLOW_LR                   default of the "lr" parameter
    FLOW_CONTINUE             a task id: continue that task (continue_last_task)
    FLOW_FAIL                 "1": raise an exception before the end
A line ``FLOW_RESULT {json}`` on stdout gives the ids the tests need.
"""

import json
import os
import struct
import sys
import time
import zlib

METRICS = ("loss", "accuracy")
VARIANTS = ("train", "val")
SINGLE_VALUE_NAME = "final_accuracy"
SINGLE_VALUE = 0.9375
TEXT_MESSAGE = "flows: report_text says hello"
CONSOLE_LINES = 3
IMAGE_TITLE, IMAGE_SERIES, IMAGE_ITERATIONS = "samples", "gradient", (0, 1)
PLOT_TITLE, PLOT_SERIES = "curve", "quadratic"
MODEL_NAME = "flows model"
MODEL_LABELS = {"background": 0, "cat": 1}
CONFIG_NAME = "model_cfg"


def default_params():
    """The parameters the script connects (task.connect, section General)."""
    return {
        "lr": float(os.environ.get("FLOW_LR", "0.1")),
        "iterations": int(os.environ.get("FLOW_ITERS", "200")),
        "sleep_per_iter": 0.0,
        "label": "baseline",
    }


def scalar_value(metric, variant, iteration, lr):
    """The value reported for (metric, variant) at an iteration."""
    if metric == "loss":
        scale = 100.0 if variant == "train" else 120.0
        return lr * scale / (iteration + 1)
    offset = 1.0 if variant == "train" else 2.0
    return 1.0 - offset / (iteration + 2 + lr)


def config_object(label):
    """The configuration connected as CONFIG_NAME."""
    return {"layers": [32, 16], "dropout": 0.25, "activation": "relu", "label": label}


def console_line(n):
    return "flows console line %d of %d" % (n + 1, CONSOLE_LINES)


def plot_figure():
    """A plotly figure as a plain dict (no plotly package needed)."""
    xs = list(range(10))
    return {
        "data": [{"type": "scatter", "mode": "lines", "name": "y=x^2", "x": xs, "y": [x * x for x in xs]}],
        "layout": {"title": "quadratic", "xaxis": {"title": "x"}, "yaxis": {"title": "y"}},
    }


def png_bytes(iteration, size=8):
    """A small valid PNG whose pixels depend on the iteration (stdlib only)."""
    rows = b""
    for y in range(size):
        row = b"\x00"  # filter type none
        for x in range(size):
            row += bytes(((x * 32 + iteration * 50) % 256, (y * 32) % 256, (iteration * 90) % 256))
        rows += row

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def artifact_dict(params):
    """The dict uploaded as the artifact "summary"."""
    return {"lr": params["lr"], "label": params["label"], "iterations": params["iterations"],
            "nested": {"primes": [2, 3, 5, 7], "name": "naïve café"}}


NOTES_TEXT = "flows notes\nline two with unicode: αβγ\n"
FOLDER_FILES = {"a.txt": b"first file\n", "sub/b.bin": bytes(range(256)) * 4}


def weights_bytes():
    """The content of the model weights file."""
    return b"TROVE-WEIGHTS\n" + bytes((i * 7) % 256 for i in range(4096))


def _write(path, data):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    from clearml import OutputModel, Task

    mode = os.environ.get("FLOW_MODE", "full")
    init_args = dict(
        project_name=os.environ.get("FLOW_PROJECT", "trove flows"),
        task_name=os.environ.get("FLOW_TASK", "train"),
        output_uri=True,  # upload models to the files server
        auto_connect_frameworks=False,
        auto_resource_monitoring=False,
    )
    if os.environ.get("FLOW_CONTINUE"):
        init_args["continue_last_task"] = os.environ["FLOW_CONTINUE"]
    task = Task.init(**init_args)

    params = task.connect(default_params())
    label = params["label"]
    config = task.connect_configuration(config_object(label), name=CONFIG_NAME)
    logger = task.get_logger()
    first_iter = task.get_initial_iteration()  # 0 unless continuing a task

    for i in range(int(params["iterations"])):
        for metric in METRICS:
            for variant in VARIANTS:
                logger.report_scalar(metric, variant, value=scalar_value(metric, variant, i, params["lr"]),
                                     iteration=i)
        if params["sleep_per_iter"]:
            time.sleep(float(params["sleep_per_iter"]))

    for n in range(CONSOLE_LINES):
        print(console_line(n))

    work = os.path.abspath("flow_outputs")
    model_id = None
    if mode == "full":
        logger.report_text(TEXT_MESSAGE)
        logger.report_plotly(PLOT_TITLE, PLOT_SERIES, figure=plot_figure(), iteration=0)
        for it in IMAGE_ITERATIONS:
            image = os.path.join(work, "image_%d.png" % it)
            _write(image, png_bytes(it))
            logger.report_image(IMAGE_TITLE, IMAGE_SERIES, iteration=it, local_path=image)
        logger.report_single_value(SINGLE_VALUE_NAME, SINGLE_VALUE)

        task.upload_artifact("summary", artifact_object=artifact_dict(params), wait_on_upload=True)
        notes = os.path.join(work, "notes.txt")
        _write(notes, NOTES_TEXT.encode("utf-8"))
        task.upload_artifact("notes", artifact_object=notes, wait_on_upload=True)
        folder = os.path.join(work, "folder")
        for rel, data in FOLDER_FILES.items():
            _write(os.path.join(folder, rel), data)
        task.upload_artifact("folder", artifact_object=folder, wait_on_upload=True)

        weights = os.path.join(work, "weights.bin")
        _write(weights, weights_bytes())
        model = OutputModel(task=task, name=MODEL_NAME, framework="custom", label_enumeration=MODEL_LABELS)
        model.update_weights(weights_filename=weights, auto_delete_file=False, async_enable=False)
        model_id = model.id

    result = {"task_id": task.id, "project_id": task.project, "model_id": model_id,
              "params": dict(params), "config": config, "first_iter": first_iter}
    print("FLOW_RESULT " + json.dumps(result), flush=True)
    if os.environ.get("FLOW_FAIL") == "1":
        raise RuntimeError("flow boom: failing on purpose")
    task.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
