"""Scripts and helpers of the everyday SDK flows and the clearml-agent flow (issue 7).

``train.py`` and ``readback.py`` are run as subprocesses (copied outside the
git repository first); ``harness.py`` holds the pytest fixtures and helpers
shared by ``test_flows.py`` and ``test_agent.py``.
"""
