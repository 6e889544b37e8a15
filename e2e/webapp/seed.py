"""Seed a Trove for the web-app drive with the real clearml SDK.

Runs e2e/flows/train.py (scalars, plots, console, debug images,
hyper-parameters, a configuration, artifacts and an output model) as a few
tasks in nested projects, and makes a dataset with clearml.Dataset.
The caller sets CLEARML_API_HOST, CLEARML_FILES_HOST, CLEARML_WEB_HOST,
CLEARML_API_ACCESS_KEY and CLEARML_API_SECRET_KEY. Prints one JSON line
with the ids it made.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN = os.path.join(HERE, "..", "flows", "train.py")

RUNS = [
    {"FLOW_PROJECT": "Trove Demo/Vision", "FLOW_TASK": "train resnet", "FLOW_LR": "0.1", "FLOW_ITERS": "30"},
    {"FLOW_PROJECT": "Trove Demo/Vision", "FLOW_TASK": "train vgg", "FLOW_LR": "0.05", "FLOW_ITERS": "30"},
    {"FLOW_PROJECT": "Trove Demo/Vision/Detection", "FLOW_TASK": "train yolo", "FLOW_LR": "0.2", "FLOW_ITERS": "20"},
    {"FLOW_PROJECT": "Trove Demo/NLP", "FLOW_TASK": "train bert", "FLOW_LR": "0.01", "FLOW_ITERS": "20"},
]


def run_flow(env_extra):
    env = dict(os.environ, **env_extra)
    with tempfile.TemporaryDirectory() as work:
        # Run a copy outside the repository: the SDK's code and package
        # analysis then looks at one file, not the whole checkout.
        script = os.path.join(work, "train.py")
        shutil.copyfile(TRAIN, script)
        out = subprocess.run([sys.executable, script], cwd=work, env=env, stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=300)
    if out.returncode != 0:
        sys.stderr.write(out.stdout + out.stderr)
        raise SystemExit("flow %s failed" % env_extra["FLOW_TASK"])
    for line in out.stdout.splitlines():
        if line.startswith("FLOW_RESULT "):
            return json.loads(line[len("FLOW_RESULT "):])
    raise SystemExit("flow %s printed no result" % env_extra["FLOW_TASK"])


def make_dataset():
    from clearml import Dataset

    with tempfile.TemporaryDirectory() as d:
        for i in range(3):
            with open(os.path.join(d, "sample_%d.csv" % i), "w") as f:
                f.write("x,y\n%d,%d\n" % (i, i * i))
        ds = Dataset.create(dataset_name="digits", dataset_project="Trove Datasets")
        ds.add_files(d)
        ds.upload()
        ds.finalize()
        return ds.id


def main():
    tasks = [run_flow(r) for r in RUNS]
    result = {"tasks": tasks, "dataset_id": make_dataset()}
    print("SEED_RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
