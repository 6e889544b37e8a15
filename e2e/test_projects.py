"""projects.* through the real clearml SDK's APIClient.

The client is configured only through the environment and clearml.conf set
up by conftest.py, exactly as a user's SDK would be. Names are looked up the
way the SDK itself does it (``exact_match_regex``: an anchored, escaped
regex), since ClearML's ``name`` filter in get_all is a regex search.
"""

from __future__ import annotations

import json
import re

import pytest
from clearml.backend_api.session.client import APIError
from clearml.backend_interface.util import exact_match_regex


def raw_data(response) -> dict:
    """The ``data`` part of a response, as the server sent it.

    The SDK's typed models drop fields its schema lacks (``parent`` is one),
    so fields like that are checked on the raw JSON.
    """
    return response._result.response_data


def raw_call(api, endpoint: str, payload: dict) -> dict:
    """Call ``service.action`` through the SDK's logged-in session, unversioned URL."""
    service, action = endpoint.split(".", 1)
    res = api.session.send_request(service=service, action=action, json=payload)
    body = res.json()
    assert res.status_code == 200, f"{endpoint} -> HTTP {res.status_code}: {body}"
    assert body["meta"]["result_code"] == 200, body["meta"]
    return body["data"]


def names_matching(api, pattern: str) -> dict:
    """{id: name} of the projects whose name matches ``pattern``."""
    return {p.id: p.name for p in api.projects.get_all(name=pattern)}


def exact(api, name: str) -> list:
    return list(api.projects.get_all(name=exact_match_regex(name)))


def test_login_gives_token_with_api_version(api):
    from clearml.backend_api import Session

    token = api.session.token
    assert isinstance(token, str) and token.count(".") == 2, f"expected a JWT, got {token!r}"
    # The SDK picks its request/response schemas from the token's api_version
    # claim; without it it falls back to 2.9 models (no basename, etc.).
    assert Session.check_min_api_version("2.23"), (
        f"SDK settled on api_version {Session.api_version}: the login token must carry "
        "an api_version claim >= 2.23"
    )


def test_create_and_get_by_id(api, make_name):
    name = make_name()
    created = api.projects.create(name=name, description="made by e2e", tags=["e2e", "first"])
    pid = created.id
    assert isinstance(pid, str) and pid

    project = api.projects.get_by_id(project=pid)
    assert project.id == pid
    assert project.name == name
    assert project.basename == name
    assert project.description == "made by e2e"
    assert sorted(project.tags) == ["e2e", "first"]

    data = raw_call(api, "projects.get_by_id", {"project": pid})["project"]
    assert data["id"] == pid and data["name"] == name
    assert not data.get("parent"), f"a top-level project has no parent, got {data.get('parent')!r}"


def test_get_all_by_name_and_id(api, make_name):
    prefix = make_name()
    names = [f"{prefix}-a", f"{prefix}-b.v2", f"{prefix}-c"]
    ids = {api.projects.create(name=n).id: n for n in names}
    assert len(ids) == 3, "each create must return a distinct id"

    # exact lookup, the way the SDK resolves a project name
    found = exact(api, names[1])
    assert [(p.id, p.name) for p in found] == [(next(i for i, n in ids.items() if n == names[1]), names[1])]

    # regex search over the shared prefix finds all three and nothing else
    assert names_matching(api, "^" + re.escape(prefix) + "-") == ids

    # the '.' in "b.v2" is escaped by exact_match_regex, so "bXv2" must not match
    assert exact(api, f"{prefix}-bXv2") == []
    assert exact(api, f"{prefix}-zzz") == []

    # by id
    by_id = api.projects.get_all(id=list(ids))
    assert {p.id: p.name for p in by_id} == ids

    data = raw_data(api.projects.get_all(name=exact_match_regex(names[0])))
    assert [p["name"] for p in data["projects"]] == [names[0]]


def test_rename(api, make_name):
    old, new = make_name("old"), make_name("new")
    pid = api.projects.create(name=old).id

    res = api.projects.update(project=pid, name=new)
    assert res.updated == 1

    project = api.projects.get_by_id(project=pid)
    assert (project.id, project.name, project.basename) == (pid, new, new)
    assert exact(api, old) == []
    assert [p.id for p in exact(api, new)] == [pid]


def test_subproject_under_existing_parent(api, make_name):
    parent = make_name()
    parent_id = api.projects.create(name=parent).id
    child = f"{parent}/child"
    child_id = api.projects.create(name=child).id
    assert child_id != parent_id

    project = api.projects.get_by_id(project=child_id)
    assert project.name == child
    assert project.basename == "child"
    assert raw_call(api, "projects.get_by_id", {"project": child_id})["project"]["parent"] == parent_id

    listed = exact(api, child)
    assert [(p.id, p.basename) for p in listed] == [(child_id, "child")]
    raw = raw_data(api.projects.get_all(name=exact_match_regex(child)))["projects"]
    assert [p.get("parent") for p in raw] == [parent_id]

    # the parent itself is unchanged and still unique
    assert [p.id for p in exact(api, parent)] == [parent_id]
    # both show up under the parent's prefix
    assert names_matching(api, "^" + re.escape(parent)) == {parent_id: parent, child_id: child}


def test_subproject_creates_missing_parents(api, make_name):
    root = make_name()
    leaf_id = api.projects.create(name=f"{root}/mid/leaf").id

    roots = exact(api, root)
    mids = exact(api, f"{root}/mid")
    assert len(roots) == 1, f"creating {root}/mid/leaf must create {root}"
    assert len(mids) == 1, f"creating {root}/mid/leaf must create {root}/mid"
    root_id, mid_id = roots[0].id, mids[0].id
    assert mids[0].basename == "mid"

    def parent_of(pid):
        return raw_call(api, "projects.get_by_id", {"project": pid})["project"].get("parent")

    assert parent_of(leaf_id) == mid_id
    assert parent_of(mid_id) == root_id
    assert not parent_of(root_id)
    assert api.projects.get_by_id(project=leaf_id).basename == "leaf"


def test_rename_parent_renames_children(api, make_name):
    old, new = make_name("old"), make_name("new")
    parent_id = api.projects.create(name=old).id
    child_id = api.projects.create(name=f"{old}/child").id

    assert api.projects.update(project=parent_id, name=new).updated == 1

    child = api.projects.get_by_id(project=child_id)
    assert (child.name, child.basename) == (f"{new}/child", "child")
    assert exact(api, f"{old}/child") == []


def test_duplicate_name_is_rejected_with_400(api, make_name):
    name = make_name()
    first = api.projects.create(name=name).id

    with pytest.raises(APIError) as err:
        api.projects.create(name=name)
    assert err.value.code == 400, f"expected result code 400, got {err.value.codes}: {err.value.message}"
    assert err.value.meta.result_code == 400
    assert err.value.message, "the error must carry a result_msg"

    # nothing was created by the failed call
    assert [p.id for p in exact(api, name)] == [first]

    # same for sub-projects
    api.projects.create(name=f"{name}/child")
    with pytest.raises(APIError) as err:
        api.projects.create(name=f"{name}/child")
    assert err.value.code == 400


def test_delete(api, make_name):
    prefix = make_name()
    keep = api.projects.create(name=f"{prefix}-keep").id
    gone = api.projects.create(name=f"{prefix}-gone").id
    assert len(names_matching(api, "^" + re.escape(prefix))) == 2

    res = api.projects.delete(project=gone)
    assert res.deleted == 1

    assert names_matching(api, "^" + re.escape(prefix)) == {keep: f"{prefix}-keep"}
    with pytest.raises(APIError) as err:
        api.projects.get_by_id(project=gone)
    assert err.value.code == 400, f"get_by_id of a deleted project: expected 400, got {err.value.codes}"

    # a deleted project's name can be used again
    again = api.projects.create(name=f"{prefix}-gone").id
    assert again != gone


def test_delete_child_then_parent(api, make_name):
    parent = make_name()
    parent_id = api.projects.create(name=parent).id
    child_id = api.projects.create(name=f"{parent}/child").id

    assert api.projects.delete(project=child_id).deleted == 1
    assert [p.id for p in exact(api, parent)] == [parent_id]
    assert api.projects.delete(project=parent_id).deleted == 1
    assert names_matching(api, "^" + re.escape(parent)) == {}


def test_fresh_sdk_process_configured_by_clearml_conf_only(api, run_sdk, make_name):
    """A new process, with only CLEARML_CONFIG_FILE set, sees the same projects."""
    name = make_name()
    pid = api.projects.create(name=name).id

    code = f"""
import json
from clearml.backend_api.session.client import APIClient
from clearml.backend_interface.util import exact_match_regex
client = APIClient()
found = client.projects.get_all(name=exact_match_regex({name!r}))
print("RESULT " + json.dumps([[p.id, p.name] for p in found]))
"""
    proc = run_sdk(
        code,
        unset=("CLEARML_API_HOST", "CLEARML_WEB_HOST", "CLEARML_FILES_HOST",
               "CLEARML_API_ACCESS_KEY", "CLEARML_API_SECRET_KEY"),
    )
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"no RESULT line in output:\n{proc.stdout}\n{proc.stderr}"
    assert json.loads(lines[-1][len("RESULT "):]) == [[pid, name]]
