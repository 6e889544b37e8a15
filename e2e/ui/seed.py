"""Seed a Trove for the UI suite with the real clearml SDK.

Runs e2e/flows/train.py (scalars, a plot, console lines, debug images,
hyper-parameters, a configuration, artifacts, an output model) as two tasks
of one project, both at once to keep the seeding short, and keeps the
results page link the SDK prints for each. The caller sets
CLEARML_API_HOST, CLEARML_FILES_HOST, CLEARML_WEB_HOST,
CLEARML_API_ACCESS_KEY and CLEARML_API_SECRET_KEY. Prints one line
``SEED_RESULT {json}``.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRAIN = os.path.join(HERE, "..", "flows", "train.py")
PROJECT = "UI E2E/Vision"

RUNS = [
    {"FLOW_PROJECT": PROJECT, "FLOW_TASK": "train resnet", "FLOW_LR": "0.1", "FLOW_ITERS": "30"},
    {"FLOW_PROJECT": PROJECT, "FLOW_TASK": "train vgg", "FLOW_LR": "0.05", "FLOW_ITERS": "20"},
]

# The SDK's "ClearML results page: <url>" line.
RESULTS_LINK = re.compile(r"results page:\s*(\S+)")


def start(run, work):
    script = os.path.join(work, "train.py")
    # A copy outside the repository: the SDK then analyses one file, not the checkout.
    shutil.copyfile(TRAIN, script)
    env = dict(os.environ, **run)
    return subprocess.Popen([sys.executable, script], cwd=work, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def finish(run, proc):
    try:
        out, _ = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise SystemExit("flow %s took more than 300 s" % run["FLOW_TASK"])
    if proc.returncode != 0:
        sys.stderr.write(out)
        raise SystemExit("flow %s failed (exit %d)" % (run["FLOW_TASK"], proc.returncode))
    result, link = None, None
    for line in out.splitlines():
        if line.startswith("FLOW_RESULT "):
            result = json.loads(line[len("FLOW_RESULT "):])
        m = RESULTS_LINK.search(line)
        if m and link is None:
            link = m.group(1)
    if result is None:
        sys.stderr.write(out)
        raise SystemExit("flow %s printed no result" % run["FLOW_TASK"])
    result["name"] = run["FLOW_TASK"]
    result["sdk_link"] = link
    return result


def expectations():
    """What the pages must show, from train.py's own constants."""
    sys.path.insert(0, os.path.dirname(TRAIN))
    import train

    return {
        "console": [train.console_line(n) for n in range(train.CONSOLE_LINES)],
        "metrics": list(train.METRICS),
        "plot_title": train.PLOT_TITLE,
        "image_title": train.IMAGE_TITLE,
        "artifacts": ["summary", "notes", "folder"],
        "model_name": train.MODEL_NAME,
        "script": "train.py",
    }


def main():
    works = [tempfile.mkdtemp(prefix="trove-ui-seed-") for _ in RUNS]
    try:
        procs = [start(run, work) for run, work in zip(RUNS, works)]
        tasks = [finish(run, proc) for run, proc in zip(RUNS, procs)]
    finally:
        for work in works:
            shutil.rmtree(work, ignore_errors=True)
    print("SEED_RESULT " + json.dumps({"project": PROJECT, "tasks": tasks, "expect": expectations()}), flush=True)


if __name__ == "__main__":
    main()
