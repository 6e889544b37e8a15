"""Seeds a Trove for the MLflow UI drive with MLflow's own client.

One experiment with two finished runs (params, tags, metrics over 40 steps,
artifacts: a text file, a JSON file, a PNG image and a folder), a
scikit-learn model logged by the first run and registered twice under one
name with an alias and a tag; and a GenAI experiment with three traces
made by MLflow's tracing (a chain over an LLM span with token usage and a
tool span, one trace failing) and feedback on two of them, for the
overview's charts. Reads MLFLOW_TRACKING_URI, _USERNAME and
_PASSWORD from the environment; prints one line ``SEED_RESULT {json}``.
"""

from __future__ import annotations

import json
import math
import os
import struct
import tempfile
import zlib

import mlflow
import numpy as np
from mlflow import MlflowClient
from mlflow.entities import AssessmentSource, SpanType
from sklearn.linear_model import LogisticRegression


def png(width: int, height: int) -> bytes:
    """A small gradient PNG written by hand (no imaging library needed)."""
    raw = b"".join(b"\x00" + b"".join(bytes((x * 255 // width, y * 255 // height, 128)) for x in range(width))
                   for y in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def genai() -> str:
    """Three traces (one an error) with token usage and a tool call, and feedback."""
    exp = mlflow.set_experiment("ui-e2e-genai")

    @mlflow.trace(name="answer", span_type=SpanType.CHAIN)
    def answer(question: str, fail: bool) -> str:
        with mlflow.start_span(name="search_docs", span_type=SpanType.TOOL) as tool:
            tool.set_inputs({"query": question})
            tool.set_outputs({"docs": ["trove.md"]})
        with mlflow.start_span(name="chat_model", span_type=SpanType.CHAT_MODEL) as llm:
            llm.set_inputs({"messages": [{"role": "user", "content": question}]})
            llm.set_attribute("mlflow.chat.tokenUsage",
                              {"input_tokens": 10 * len(question), "output_tokens": 20, "total_tokens": 10 * len(question) + 20})
            llm.set_outputs({"content": "an answer"})
        if fail:
            raise ValueError("no answer")
        return "an answer"

    ids = []
    for question, fail in (("what is trove", False), ("why", False), ("fail please", True)):
        try:
            answer(question, fail)
        except ValueError:
            pass
        ids.append(mlflow.get_last_active_trace_id())
    mlflow.flush_trace_async_logging()
    source = AssessmentSource(source_type="HUMAN", source_id="ui-e2e")
    mlflow.log_feedback(trace_id=ids[0], name="relevance", value=True, source=source)
    mlflow.log_feedback(trace_id=ids[1], name="relevance", value=False, source=source)
    mlflow.log_feedback(trace_id=ids[0], name="score", value=0.8, source=source)
    return exp.experiment_id


def main() -> None:
    client = MlflowClient()
    exp = mlflow.set_experiment("ui-e2e-vision")
    client.set_experiment_tag(exp.experiment_id, "team", "vision")
    runs = {}
    work = tempfile.mkdtemp()
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 5)
    y = np.array([0, 1, 1, 1] * 5)
    for name, lr in (("baseline", 0.1), ("tuned", 0.01)):
        with mlflow.start_run(run_name=name) as run:
            mlflow.log_params({"lr": lr, "optimizer": "adam", "epochs": 40})
            mlflow.set_tags({"stage": "ui-e2e", "mlflow.note.content": f"the {name} run"})
            for step in range(40):
                mlflow.log_metrics({"loss": 1.0 / (step + 1) + lr, "accuracy": 1.0 - math.exp(-step / (10 if lr > 0.05 else 5))},
                                   step=step)
            d = os.path.join(work, name)
            os.makedirs(os.path.join(d, "plots"), exist_ok=True)
            with open(os.path.join(d, "notes.txt"), "w") as f:
                f.write(f"notes of the {name} run\n")
            with open(os.path.join(d, "config.json"), "w") as f:
                json.dump({"lr": lr, "layers": [64, 32]}, f)
            with open(os.path.join(d, "plots", "gradient.png"), "wb") as f:
                f.write(png(64, 48))
            mlflow.log_artifacts(d)
            if name == "baseline":
                model = LogisticRegression(C=10.0).fit(X, y)
                info = mlflow.sklearn.log_model(model, name="model", registered_model_name="ui-e2e-classifier",
                                                input_example=X[:2])
                runs["model_id"] = info.model_id
            runs[name] = run.info.run_id
    # a second version from the same logged model, an alias and a tag
    v2 = client.create_model_version("ui-e2e-classifier", f"models:/{runs['model_id']}", run_id=runs["baseline"])
    client.set_registered_model_alias("ui-e2e-classifier", "champion", "1")
    client.set_model_version_tag("ui-e2e-classifier", "1", "validated", "yes")
    client.update_registered_model("ui-e2e-classifier", description="a classifier for the UI drive")
    genai_id = genai()
    print("SEED_RESULT " + json.dumps({"experiment_id": exp.experiment_id, "runs": runs, "model": "ui-e2e-classifier",
                                       "versions": ["1", v2.version], "genai_experiment_id": genai_id}), flush=True)


if __name__ == "__main__":
    main()
