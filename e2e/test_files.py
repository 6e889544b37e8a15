"""The built-in file server (--files-addr), through the real SDK and plain HTTP.

The SDK uploads with a multipart POST to the files host whose one part's
field name is the storage path, sends the API token as a Bearer header to
the files host, downloads with GET (size first, then the bytes), checks
existence with HEAD and deletes with DELETE.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import uuid
from pathlib import Path
from urllib.parse import quote, urlsplit

import pytest
import requests


@pytest.fixture(scope="module")
def http():
    s = requests.Session()
    s.trust_env = False  # no proxies for loopback
    yield s
    s.close()


@pytest.fixture(scope="module")
def token(trove) -> str:
    # Not through `http`: auth.login sets the session cookie, which would
    # then authorize that session's "no token" requests.
    with requests.Session() as s:
        s.trust_env = False
        res = s.get(f"{trove.api_url}/auth.login", auth=(trove.access_key, trove.secret_key), timeout=10)
    assert res.status_code == 200, res.text
    return res.json()["data"]["token"]


def stored_files(trove) -> list:
    """Every file the server keeps on disk (local storage), spool included."""
    root = Path(trove.data_dir) / "files"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


SDK_ROUND_TRIP = r'''
import hashlib, json, os
from clearml import StorageManager
from clearml.storage.helper import StorageHelper

files = os.environ["CLEARML_FILES_HOST"]
work = os.environ["E2E_DIR"]
local = os.path.join(work, "weights ü.bin")
data = os.urandom(3 * 1024 * 1024 + 17)
with open(local, "wb") as f:
    f.write(data)

url = StorageManager.upload_file(local, files + "/" + os.environ["E2E_PREFIX"] + "/a dir/weights ü.bin")
exists = StorageManager.exists_file(url)
size = StorageManager.get_file_size_bytes(url)
copy = StorageManager.get_local_copy(url, force_download=True, extract_archive=False)
with open(copy, "rb") as f:
    copied = f.read()
deleted = StorageHelper.get(url).delete(url)
exists_after = StorageManager.exists_file(url)
print("RESULT " + json.dumps({
    "url": url, "exists": exists, "size": size, "local_sha": hashlib.sha256(data).hexdigest(),
    "copy_sha": hashlib.sha256(copied).hexdigest(), "deleted": deleted, "exists_after": exists_after,
}))
'''


def test_sdk_storage_manager_round_trip(run_sdk, trove, make_name, tmp_path):
    prefix = make_name("sdk")
    proc = run_sdk(SDK_ROUND_TRIP, env={"E2E_PREFIX": prefix, "E2E_DIR": str(tmp_path)})
    line = next(ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT "))
    res = json.loads(line[len("RESULT "):])
    assert res["url"].startswith(trove.files_url + "/" + prefix), res
    assert res["exists"] is True, res
    assert res["size"] == 3 * 1024 * 1024 + 17, res
    assert res["copy_sha"] == res["local_sha"], "downloaded copy differs from the upload"
    assert res["deleted"] is True, res
    assert res["exists_after"] is False, res
    # deleting the file also removed the directories it left empty
    assert not any(prefix in p for p in stored_files(trove)), stored_files(trove)


def test_http_round_trip(http, trove, token, make_name):
    path = f"/{make_name('http')}/task ü.{uuid.uuid4().hex}/artifacts/data/data.json"
    body = json.dumps({"hello": "files", "n": list(range(50))}).encode()
    auth = {"Authorization": f"Bearer {token}"}
    res = http.post(f"{trove.files_url}/", files={path: (path, body, "application/json")}, headers=auth, timeout=10)
    assert res.status_code == 200, res.text
    assert res.json() == [path.lstrip("/")]
    assert res.headers.get("Connection", "").lower() == "close"

    url = trove.files_url + quote(path)  # how the SDK writes artifact URIs
    res = http.get(url, headers=auth, timeout=10)
    assert res.status_code == 200 and res.content == body
    assert res.headers["Content-Length"] == str(len(body))
    assert res.headers["Content-Type"] == "application/json"

    res = http.get(url, headers={**auth, "Range": "bytes=2-6"}, timeout=10)
    assert res.status_code == 206 and res.content == body[2:7]

    res = http.head(url, headers=auth, timeout=10)
    assert res.status_code == 200 and res.headers["Content-Length"] == str(len(body))

    # the web UI's session cookie works as well as the Bearer header
    with requests.Session() as browser:
        browser.trust_env = False
        res = browser.get(url, cookies={"clearml_token_basic": token}, timeout=10)
    assert res.status_code == 200 and res.content == body

    res = http.delete(url, headers=auth, timeout=10)
    assert res.status_code == 200, res.text
    assert http.get(url, headers=auth, timeout=10).status_code == 404


def raw_post(trove, token: str, head: bytes, body: bytes, declared: int) -> int:
    """Send a POST whose body is cut short, half-close, return the status."""
    host, port = urlsplit(trove.files_url).hostname, urlsplit(trove.files_url).port
    with socket.create_connection((host, port), timeout=10) as s:
        s.sendall(
            b"POST / HTTP/1.1\r\nHost: files\r\n"
            + f"Authorization: Bearer {token}\r\nContent-Length: {declared}\r\n".encode()
            + b"Content-Type: multipart/form-data; boundary=XyZ\r\n\r\n" + head + body
        )
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
    return int(reply.split(b" ", 2)[1])


def test_bad_input(http, trove, token, make_name):
    auth = {"Authorization": f"Bearer {token}"}
    prefix = make_name("bad")
    before = stored_files(trove)

    def upload(name, headers=auth):
        return http.post(f"{trove.files_url}/", files={name: (name or "x", b"data")}, headers=headers, timeout=10)

    res = upload(f"/{prefix}/no-token.txt", headers={})
    assert res.status_code == 401, res.text
    res = upload(f"/{prefix}/bad-token.txt", headers={"Authorization": "Bearer nope"})
    assert res.status_code == 401, res.text
    res = upload(f"/{prefix}/../../escape.txt")
    assert res.status_code == 400 and ".." in res.text, res.text
    res = upload("//etc/passwd")
    assert res.status_code == 400 and "absolute" in res.text, res.text
    res = http.post(f"{trove.files_url}/", data=b"{}", headers={**auth, "Content-Type": "application/json"}, timeout=10)
    assert res.status_code == 400 and "multipart" in res.text, res.text

    # a multipart body that ends in the middle of its part
    head = (f'--XyZ\r\nContent-Disposition: form-data; name="/{prefix}/truncated.bin"; '
            f'filename="truncated.bin"\r\n\r\n').encode()
    assert raw_post(trove, token, head, os.urandom(1000), len(head) + 5000) == 400

    # (urllib3 would resolve a literal "/../": send it percent-encoded)
    assert http.get(f"{trove.files_url}/{prefix}/%2E%2E/%2E%2E/x", headers=auth, timeout=10).status_code == 400
    assert http.get(f"{trove.files_url}/{prefix}/none.bin", headers=auth, timeout=10).status_code == 404
    assert http.get(f"{trove.files_url}/{prefix}/none.bin", timeout=10).status_code == 401

    # nothing was stored, no half upload is left in the spool
    assert stored_files(trove) == before
    # and the server is fine
    res = upload(f"/{prefix}/after.txt")
    assert res.status_code == 200, res.text
    assert http.get(f"{trove.files_url}/{prefix}/after.txt", headers=auth, timeout=10).content == b"data"
    assert http.get(f"{trove.files_url}/", timeout=10).text == "OK"
