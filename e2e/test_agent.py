"""Flow 4 of issue 7: `clearml-agent daemon --queue <name>` runs queued clones against trove.

The agent runs in its virtualenv mode with every package step switched off,
so it needs no network: CLEARML_AGENT_SKIP_PYTHON_ENV_INSTALL=1 and
CLEARML_AGENT_SKIP_PIP_VENV_INSTALL=<this venv's python> make it run the
task with the interpreter of the e2e venv, which already has the SDK. The
task (a clone of the flow-1 training run) was created from a standalone
script, so the agent writes ``script.diff`` to a file and runs it; no git.
The daemon is a subprocess with a bounded life (killed in a finally), with
HOME, its config and its work dirs in a temp dir; its log is attached to
any failure.
"""

from __future__ import annotations

import atexit
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flows import train as script
from flows.harness import call, get_task, parse_marker, tail, wait_until
from flows.harness import flow_project, flow_runner, trained  # noqa: F401 (fixtures)

TERMINAL = {"completed", "failed", "stopped", "published", "closed"}
# Hard bound on a daemon's life, even if pytest itself is killed (the daemon
# runs in its own session, so it would not die with pytest's process group).
DAEMON_LIFETIME = 600
_DAEMONS: list = []


@atexit.register
def _stop_leftover_daemons() -> None:
    for a in _DAEMONS:
        a.stop()


class Agent:
    """A `clearml-agent daemon` subprocess serving one queue."""

    def __init__(self, home: Path, clearml_env, worker_id: str) -> None:
        self.home = home
        self.worker_id = worker_id
        self.log_path = home / "agent.log"
        self.proc = None
        self.config = home / "clearml-agent.conf"
        base = Path(clearml_env.config_file).read_text()
        self.config.write_text(base + f"""
agent {{
    worker_id: {json.dumps(worker_id)}
    venvs_dir: {json.dumps(str(home / "venvs"))}
    vcs_cache {{ enabled: false, path: {json.dumps(str(home / "vcs-cache"))} }}
    pip_download_cache {{ enabled: false, path: {json.dumps(str(home / "pip-cache"))} }}
    venv_update {{ enabled: false }}
    docker_pip_cache: {json.dumps(str(home / "docker-pip-cache"))}
    docker_apt_cache: {json.dumps(str(home / "docker-apt-cache"))}
    package_manager {{ type: pip, system_site_packages: true }}
}}
""")

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLOW_")}
        env.update({
            "HOME": str(self.home),
            "CLEARML_CONFIG_FILE": str(self.config),
            "CLEARML_WORKER_ID": self.worker_id,
            # offline-safe: no venv creation, no pip; run tasks with this venv's interpreter
            "CLEARML_AGENT_SKIP_PYTHON_ENV_INSTALL": "1",
            "CLEARML_AGENT_SKIP_PIP_VENV_INSTALL": sys.executable,
            # poll the queue and the running task's status every second instead of 5 s
            "CLEARML_AGENT_QUEUE_POLL_FREQ_SEC": "1",
            "PYTHONUNBUFFERED": "1",
            "TMPDIR": str(self.home / "tmp"),  # the agent's temp config and output files
        })
        return env

    def start(self, queue: str) -> None:
        (self.home / "tmp").mkdir(exist_ok=True)
        with open(self.log_path, "ab") as log:
            _DAEMONS.append(self)
            self.proc = subprocess.Popen(
                ["timeout", "-k", "10", str(DAEMON_LIFETIME),
                 sys.executable, "-m", "clearml_agent", "daemon", "--queue", queue, "--cpu-only", "--foreground"],
                cwd=str(self.home), env=self.env(), stdin=subprocess.DEVNULL, stdout=log,
                stderr=subprocess.STDOUT, start_new_session=True,
            )

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        """SIGTERM the daemon's process group (it unregisters), SIGKILL whatever is left."""
        if self.proc is None:
            return
        for sig, wait in ((signal.SIGTERM, 20), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.proc.pid, sig)
            except ProcessLookupError:
                break
            try:
                self.proc.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        try:  # children in the same group that outlived the daemon
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


@pytest.fixture
def agent(tmp_path, clearml_env):
    """The daemon (not started yet); stopped at teardown, its log printed (pytest shows it on failure)."""
    a = Agent(tmp_path, clearml_env, f"flows-agent-{os.getpid()}-{int(time.time())}:cpu")
    yield a
    a.stop()
    print(f"--- clearml-agent log ({a.log_path}) ---\n" + tail(a.log(), 30_000))


def wait_status(api, task_id: str, want: str, agent: Agent, timeout: float) -> dict:
    """Poll the task until ``want``; fail at once on another final status or a dead daemon."""
    def check():
        task = get_task(api, task_id)
        if task["status"] == want:
            return task
        if task["status"] in TERMINAL:
            raise AssertionError(f"task {task_id} ended {task['status']} ({task.get('status_reason')!r}, "
                                 f"{task.get('status_message')!r}), expected {want}\n--- agent log ---\n"
                                 + tail(agent.log()))
        if not agent.alive():
            raise AssertionError(f"the agent exited with {agent.proc.returncode} while task {task_id} was "
                                 f"{task['status']}\n--- agent log ---\n" + tail(agent.log()))
        return None

    try:
        return wait_until(check, timeout, f"task {task_id} to become {want}", interval=0.5)
    except AssertionError as exc:
        if "timed out" in str(exc):
            raise AssertionError(f"{exc}\n--- agent log ---\n{tail(agent.log())}") from None
        raise


def clone_and_enqueue(flow_runner, source_id: str, queue: str, clones: dict) -> dict:
    """Clone ``source_id`` once per {name: parameters}, enqueue each in order; {name: id}."""
    code = f"""
import json
from clearml import Task
ids = {{}}
for name, params in {clones!r}.items():
    clone = Task.clone(source_task={source_id!r}, name=name)
    clone.update_parameters({{"General/" + k: v for k, v in params.items()}})
    Task.enqueue(clone, queue_name={queue!r})
    ids[name] = clone.id
print("FLOW_OUT " + json.dumps(ids))
"""
    path = flow_runner.workdir("agent-clones") / "clones.py"
    path.write_text(code)
    proc = subprocess.run([sys.executable, str(path)], cwd=str(path.parent), env=flow_runner.env(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)
    out = parse_marker(proc.stdout, "FLOW_OUT")
    assert proc.returncode == 0 and out, (f"clone/enqueue failed ({proc.returncode})\n--- stdout ---\n"
                                          f"{tail(proc.stdout)}\n--- stderr ---\n{tail(proc.stderr)}")
    return out


def last_metric(task: dict, metric: str, variant: str) -> dict:
    for variants in (task.get("last_metrics") or {}).values():
        for entry in variants.values():
            if entry.get("metric") == metric and entry.get("variant") == variant:
                return entry
    raise AssertionError(f"no last_metrics entry {metric}/{variant}: {task.get('last_metrics')}")


def test_flow4_agent_runs_clone_and_aborts_second(api, trained, flow_runner, flow_project, agent):
    queue = f"{flow_project} agent"
    qid = call(api, "queues.create", name=queue)["id"]
    run_iters, run_lr = 30, 0.5
    ids = clone_and_enqueue(flow_runner, trained.task_id, queue, {
        "agent run": {"lr": run_lr, "iterations": run_iters, "label": "agent"},
        "agent abort": {"lr": 0.2, "iterations": 400, "sleep_per_iter": 0.25},
    })
    run_id, abort_id = ids["agent run"], ids["agent abort"]
    entries = call(api, "queues.get_by_id", queue=qid)["queue"]["entries"]
    assert [e["task"] for e in entries] == [run_id, abort_id]

    agent.start(queue)

    # 1. the first clone: pulled, run with its changed parameters, completed
    task = wait_status(api, run_id, "completed", agent, timeout=150)
    assert task["status_reason"] == "worker execution done", "the agent, not the SDK, completes a remote run"
    assert task["hyperparams"]["General"]["lr"]["value"] == str(run_lr)
    assert task["last_iteration"] == run_iters - 1, "the agent run must use the clone's iterations"
    for metric in script.METRICS:
        for variant in script.VARIANTS:
            entry = last_metric(task, metric, variant)
            assert entry["value"] == pytest.approx(script.scalar_value(metric, variant, run_iters - 1, run_lr),
                                                   rel=1e-9), (metric, variant, entry)
    assert task.get("last_worker") == agent.worker_id, f"last_worker {task.get('last_worker')!r}"
    assert task["started"] and task["completed"]
    arts = {a["key"] for a in task["execution"]["artifacts"]}
    assert arts == {"summary", "notes", "folder"}, sorted(arts)
    assert task["models"]["output"], "the agent run must register its output model"
    model = call(api, "models.get_by_id", model=task["models"]["output"][-1]["model"])["model"]
    assert model["task"] == run_id and model["uri"].endswith("weights.bin")

    hist = call(api, "events.scalar_metrics_iter_histogram", task=run_id, key="iter")
    assert hist["loss"]["train"]["x"] == list(range(run_iters))
    assert hist["loss"]["train"]["y"] == pytest.approx(
        [script.scalar_value("loss", "train", i, run_lr) for i in range(run_iters)], rel=1e-9)
    log = call(api, "events.get_task_log", task=run_id, batch_size=500, navigate_earlier=False, order="asc")
    text = "\n".join(e.get("msg", "") for e in log["events"])
    assert script.console_line(0) in text, "the agent ships the task's console output to the task log"

    workers = call(api, "workers.get_all")["workers"]
    mine = [w for w in workers if w["id"] == agent.worker_id]
    assert mine, f"worker {agent.worker_id} not in workers.get_all: {[w['id'] for w in workers]}"
    assert qid in [q["id"] for q in mine[0].get("queues") or []], mine[0]

    # 2. the second clone: aborted with tasks.stop while running, ends stopped
    def running_with_progress():
        t = get_task(api, abort_id)
        if t["status"] in TERMINAL:
            raise AssertionError(f"task {abort_id} ended {t['status']} before it was stopped\n" + tail(agent.log()))
        return t if t["status"] == "in_progress" and t.get("last_iteration", 0) >= 5 else None

    wait_until(running_with_progress, 120, f"task {abort_id} to run and report", interval=0.5)
    call(api, "tasks.stop", task=abort_id)
    stopped = wait_status(api, abort_id, "stopped", agent, timeout=60)
    # A live worker runs it, so tasks.stop only asks (status_message "stopping"); the agent
    # sees the request, kills the run and reports tasks.stopped with this reason.
    assert stopped["status_reason"] == "task was stopped by tasks.stop", (
        f"expected the agent's stop handshake, got reason {stopped['status_reason']!r} "
        f"message {stopped.get('status_message')!r}")
    reached = stopped["last_iteration"]
    assert reached < 399, "the task ran to its end: the stop request was not honoured"
    time.sleep(3)  # bounded: a process that survived the abort would keep reporting
    after = get_task(api, abort_id)
    assert after["status"] == "stopped" and after["last_iteration"] == reached, (
        f"the aborted task kept running: last_iteration {reached} -> {after['last_iteration']}")
    assert agent.alive(), "the daemon must survive aborting a task\n" + tail(agent.log())
    assert call(api, "queues.get_by_id", queue=qid)["queue"]["entries"] == []

    # 3. shutting the daemon down unregisters its worker
    agent.stop()
    wait_until(lambda: agent.worker_id not in [w["id"] for w in call(api, "workers.get_all")["workers"]],
               15, f"worker {agent.worker_id} to unregister")
