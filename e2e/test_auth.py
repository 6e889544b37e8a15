"""The wire protocol the SDK relies on, checked with plain HTTP.

ClearML clients call ``/<service>.<action>`` (the SDK also prefixes
``/v<api version>/``) with GET or POST and a JSON body, authenticate with
HTTP Basic key:secret on ``auth.login`` and a Bearer token elsewhere, and
read every answer as ``{"meta": {...}, "data": {...}}``.
"""

from __future__ import annotations

import pytest
import requests


@pytest.fixture(scope="module")
def http():
    s = requests.Session()
    s.trust_env = False  # no proxies for loopback
    yield s
    s.close()


def check_meta(body: dict, endpoint: str, code: int) -> dict:
    meta = body.get("meta")
    assert isinstance(meta, dict), f"no meta in {body}"
    assert meta.get("result_code") == code, meta
    assert isinstance(meta.get("result_msg"), str), meta
    # the SDK formats errors and log lines with meta.endpoint.name
    assert (meta.get("endpoint") or {}).get("name") == endpoint, meta
    return meta


def login(http, trove) -> str:
    res = http.get(f"{trove.api_url}/auth.login", auth=(trove.access_key, trove.secret_key), timeout=10)
    assert res.status_code == 200, res.text
    body = res.json()
    check_meta(body, "auth.login", 200)
    token = body["data"]["token"]
    assert isinstance(token, str) and token
    return token


def test_ping_needs_no_auth(http, trove):
    res = http.get(f"{trove.api_url}/debug.ping", timeout=10)
    assert res.status_code == 200


def test_login_with_basic_auth(http, trove):
    login(http, trove)


def test_login_with_wrong_secret_is_401(http, trove):
    res = http.get(f"{trove.api_url}/auth.login", auth=(trove.access_key, trove.secret_key + "x"), timeout=10)
    assert res.status_code == 401, res.text
    check_meta(res.json(), "auth.login", 401)


def test_unknown_key_is_401(http, trove):
    res = http.get(f"{trove.api_url}/auth.login", auth=("NOSUCHKEY" + "0" * 15, trove.secret_key), timeout=10)
    assert res.status_code == 401, res.text


def test_call_without_token_is_401(trove):
    # a fresh session: the shared one may hold a login cookie from other tests
    with requests.Session() as fresh:
        fresh.trust_env = False
        res = fresh.post(f"{trove.api_url}/projects.get_all", json={}, timeout=10)
    assert res.status_code == 401, res.text
    check_meta(res.json(), "projects.get_all", 401)


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("prefix", ["", "/v2.23"])
def test_bearer_token_call(http, trove, method, prefix):
    """GET with a JSON body is what the SDK sends by default."""
    token = login(http, trove)
    res = http.request(
        method, f"{trove.api_url}{prefix}/projects.get_all",
        json={"page": 0, "page_size": 5}, headers={"Authorization": f"Bearer {token}"}, timeout=10,
    )
    assert res.status_code == 200, res.text
    body = res.json()
    check_meta(body, "projects.get_all", 200)
    assert isinstance(body["data"]["projects"], list)


def test_unknown_endpoint_is_an_error_envelope(http, trove):
    token = login(http, trove)
    res = http.post(f"{trove.api_url}/projects.no_such_action", json={},
                    headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert res.status_code in (400, 404), res.text
    body = res.json()
    assert body["meta"]["result_code"] == res.status_code, body
