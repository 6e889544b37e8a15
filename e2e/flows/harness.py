"""Fixtures and helpers shared by the SDK flows (test_flows.py) and the agent flow (test_agent.py).

The flows run real scripts in subprocesses with the venv's Python and the
SDK environment of conftest.py (``clearml_env``). Each run gets a fresh
working directory outside the git repository holding a copy of the script,
so the SDK records it as a standalone script (``script.diff``), which is
what clearml-agent later runs. Server state is checked through the
session's ``APIClient`` with raw calls, so a test sees exactly what the
server answered, not the SDK's typed view of it.
"""

from __future__ import annotations

import itertools
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Optional

import pytest

FLOWS_DIR = Path(__file__).resolve().parent
OUTPUT_TAIL = 12_000


class ApiError(AssertionError):
    """A call the test expected to succeed was refused by the server."""


def call(api, endpoint: str, **payload) -> dict:
    """``data`` of a successful call (unversioned URL); fails naming the endpoint and the answer."""
    status, meta, data = call_raw(api, endpoint, **payload)
    if status != 200 or meta.get("result_code") != 200:
        raise ApiError(
            f"{endpoint} {json.dumps(payload)[:400]} -> HTTP {status}, result_code {meta.get('result_code')}/"
            f"{meta.get('result_subcode')}: {meta.get('result_msg')}"
        )
    return data


def call_raw(api, endpoint: str, **payload):
    """(HTTP status, meta, data) of a call, whatever the outcome."""
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    try:
        body = res.json()
    except ValueError:
        raise AssertionError(f"{endpoint} -> HTTP {res.status_code} with a non-JSON body: {res.text[:500]!r}")
    return res.status_code, body.get("meta") or {}, body.get("data") or {}


def get_task(api, task_id: str) -> dict:
    """The raw ``task`` of tasks.get_by_id."""
    return call(api, "tasks.get_by_id", task=task_id)["task"]


def wait_until(fn: Callable[[], object], timeout: float, what: str, interval: float = 0.5):
    """Poll ``fn`` until it returns something truthy; fail after ``timeout`` seconds showing the last value."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        last = fn()
        if last:
            return last
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}; last value: {last!r}")
        time.sleep(interval)


def tail(text: Optional[str], n: int = OUTPUT_TAIL) -> str:
    text = text or ""
    return text if len(text) <= n else "[... cut ...]\n" + text[-n:]


def parse_marker(stdout: str, marker: str) -> Optional[dict]:
    """The JSON after the last ``<marker> `` line of stdout, or None."""
    found = None
    for line in stdout.splitlines():
        if line.startswith(marker + " "):
            found = json.loads(line[len(marker) + 1:])
    return found


@dataclass
class Run:
    """One finished subprocess run of a flow script."""

    proc: subprocess.CompletedProcess
    result: Optional[dict]
    cwd: Path
    seconds: float

    def describe(self) -> str:
        return (f"exit code {self.proc.returncode} after {self.seconds:.1f}s in {self.cwd}\n"
                f"--- stdout ---\n{tail(self.proc.stdout)}\n--- stderr ---\n{tail(self.proc.stderr)}")


class FlowRunner:
    """Runs the scripts of e2e/flows in fresh directories outside the repository."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self._counter = itertools.count(1)

    def env(self, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FLOW_")}
        env["PYTHONUNBUFFERED"] = "1"
        env.update(extra or {})
        return env

    def workdir(self, label: str) -> Path:
        d = self.base / f"{next(self._counter):02d}-{label}"
        d.mkdir(parents=True)
        return d

    def run(self, script: str = "train.py", args=(), env: Optional[Dict[str, str]] = None,
            marker: str = "FLOW_RESULT", check: bool = True, timeout: float = 240,
            label: str = "") -> Run:
        """Run ``script`` (a file of e2e/flows) and parse its ``<marker> {json}`` line.

        With check, a non-zero exit or a missing marker fails the test showing both streams.
        """
        cwd = self.workdir(label or Path(script).stem)
        shutil.copy(FLOWS_DIR / script, cwd / script)
        t0 = time.monotonic()
        try:
            proc = subprocess.run(
                [sys.executable, script, *args], cwd=str(cwd), env=self.env(env), stdin=subprocess.DEVNULL,
                capture_output=True, text=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(
                f"{script} {' '.join(args)} timed out after {timeout}s in {cwd}\n"
                f"--- stdout ---\n{tail(exc.stdout if isinstance(exc.stdout, str) else (exc.stdout or b'').decode())}\n"
                f"--- stderr ---\n{tail(exc.stderr if isinstance(exc.stderr, str) else (exc.stderr or b'').decode())}"
            ) from None
        run = Run(proc, parse_marker(proc.stdout, marker), cwd, time.monotonic() - t0)
        if check and (proc.returncode != 0 or run.result is None):
            raise AssertionError(f"{script} {' '.join(args)} failed (no {marker} line or non-zero exit): "
                                 + run.describe())
        return run

    def train(self, project: str, task: str, mode: str = "full", check: bool = True, **flow_env) -> Run:
        """Run train.py as project/task; ``flow_env`` become FLOW_<NAME> variables."""
        env = {"FLOW_PROJECT": project, "FLOW_TASK": task, "FLOW_MODE": mode}
        env.update({f"FLOW_{k.upper()}": str(v) for k, v in flow_env.items()})
        return self.run("train.py", env=env, check=check, label=f"train-{mode}")


@pytest.fixture(scope="session")
def flow_runner(clearml_env, tmp_path_factory) -> FlowRunner:
    return FlowRunner(tmp_path_factory.mktemp("flows"))


# Both test modules import these fixtures, which gives each module its own
# copy of a session fixture; the values below are kept here instead so the
# training run of flow 1 happens once per session, not once per module.
_SESSION_TOKEN = secrets.token_hex(4)
_TRAINED: Dict[str, object] = {}  # Trained, or the AssertionError of a failed run


@pytest.fixture(scope="session")
def flow_project() -> str:
    """A project name unique to this session, with a space and a dot as real names have."""
    return f"e2e flows.{_SESSION_TOKEN}"


@dataclass
class Trained:
    """The full training run of flow 1, shared by the later flows."""

    project: str
    task_name: str
    run: Run

    @property
    def task_id(self) -> str:
        return self.run.result["task_id"]

    @property
    def model_id(self) -> str:
        return self.run.result["model_id"]


@pytest.fixture(scope="session")
def trained(flow_runner, flow_project) -> Trained:
    """Flow 1: train.py in full mode, run once per session (see _TRAINED)."""
    name = "train full"
    key = f"{os.environ.get('CLEARML_API_HOST')} {flow_project}"
    if key not in _TRAINED:
        try:
            _TRAINED[key] = Trained(flow_project, name, flow_runner.train(flow_project, name))
        except AssertionError as exc:
            _TRAINED[key] = exc
            raise
    if isinstance(_TRAINED[key], AssertionError):
        raise AssertionError(f"the flow-1 training run failed earlier in this session: {_TRAINED[key]}")
    return _TRAINED[key]
