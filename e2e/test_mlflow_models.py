"""MLflow's client against Trove's artifact proxy, logged models and model
registry (issue 38): ``log_artifact(s)`` and ``download_artifacts``
byte-identical with no client-side storage credentials,
``mlflow.sklearn.autolog()`` on a tiny model then load and predict, and the
registry with aliases. Fixtures come from test_mlflow.py's ``client``.
"""

from __future__ import annotations

import filecmp

import mlflow
import pytest
from mlflow.exceptions import MlflowException

from test_mlflow import client  # noqa: F401  (the fixture)


def test_log_artifacts_download_byte_identical(client, make_name, tmp_path):  # noqa: F811
    src = tmp_path / "src"
    (src / "sub" / "deeper").mkdir(parents=True)
    (src / "weights.bin").write_bytes(bytes(range(256)) * 4099)
    (src / "empty.txt").write_bytes(b"")
    (src / "sub" / "notes.md").write_text("# notes\nünïcode\n", encoding="utf-8")
    (src / "sub" / "deeper" / "page.html").write_text("<script>x</script>")
    single = tmp_path / "single.json"
    single.write_text('{"a": 1}')
    mlflow.set_experiment(make_name("artifacts"))
    with mlflow.start_run() as run:
        mlflow.log_artifacts(str(src), artifact_path="data")
        mlflow.log_artifact(str(single))
    assert run.info.artifact_uri.startswith("mlflow-artifacts:/")
    listed = {f.path: f for f in client.list_artifacts(run.info.run_id, "data")}
    assert set(listed) == {"data/weights.bin", "data/empty.txt", "data/sub"}
    assert listed["data/sub"].is_dir and listed["data/weights.bin"].file_size == 256 * 4099
    out = tmp_path / "out"
    got = mlflow.artifacts.download_artifacts(run_id=run.info.run_id, artifact_path="data", dst_path=str(out))
    cmp = filecmp.dircmp(str(src), got)
    assert not cmp.left_only and not cmp.right_only and not cmp.diff_files
    for rel in ["weights.bin", "empty.txt", "sub/notes.md", "sub/deeper/page.html"]:
        assert (src / rel).read_bytes() == (out / "data" / rel).read_bytes()
    one = mlflow.artifacts.download_artifacts(run_id=run.info.run_id, artifact_path="single.json", dst_path=str(tmp_path / "one"))
    assert open(one, "rb").read() == single.read_bytes()


def test_sklearn_autolog_load_and_predict(client, make_name):  # noqa: F811
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 5)
    y = np.array([0, 1, 1, 1] * 5)
    probe = np.array([[0.0, 0.0], [1.0, 1.0]])
    mlflow.set_experiment(make_name("autolog"))
    mlflow.sklearn.autolog(log_models=True, log_input_examples=False, log_model_signatures=True)
    try:
        with mlflow.start_run() as run:
            model = LogisticRegression(C=10.0).fit(X, y)
    finally:
        mlflow.sklearn.autolog(disable=True)
    got = client.get_run(run.info.run_id)
    assert got.data.params["C"] == "10.0"
    assert "training_accuracy_score" in got.data.metrics
    models = client.search_logged_models(experiment_ids=[run.info.experiment_id])
    assert len(models) == 1 and models[0].source_run_id == run.info.run_id
    assert models[0].status == "READY" or str(models[0].status).endswith("READY")
    loaded = mlflow.pyfunc.load_model(f"models:/{models[0].model_id}")
    assert list(loaded.predict(probe)) == list(model.predict(probe)) == [0, 1]
    also = mlflow.sklearn.load_model(f"runs:/{run.info.run_id}/model")
    assert list(also.predict(X)) == list(model.predict(X))


def test_registry_with_aliases(client, make_name):  # noqa: F811
    import numpy as np
    from sklearn.tree import DecisionTreeClassifier

    X, y = np.array([[0.0], [1.0], [2.0], [3.0]]), np.array([0, 0, 1, 1])
    probe = np.array([[0.0], [3.0]])
    mlflow.set_experiment(make_name("registry"))
    name = make_name("clf")
    versions = []
    for depth in (1, 2):
        with mlflow.start_run():
            # Newer clients save with skops, which loads a tree's node storage only when the
            # model names it trusted (these trees are our own).
            info = mlflow.sklearn.log_model(DecisionTreeClassifier(max_depth=depth).fit(X, y), name="model",
                                            registered_model_name=name,
                                            skops_trusted_types=["sklearn.tree._tree.Tree"])
        versions.append(info.registered_model_version)
    assert [str(v) for v in versions] == ["1", "2"]
    client.set_registered_model_alias(name, "champion", "1")
    client.set_registered_model_alias(name, "challenger", "2")
    assert client.get_model_version_by_alias(name, "champion").version == "1"
    rm = client.get_registered_model(name)
    assert rm.aliases == {"champion": "1", "challenger": "2"}
    champion = mlflow.pyfunc.load_model(f"models:/{name}@champion")
    assert list(champion.predict(probe)) == [0, 1]
    client.set_registered_model_alias(name, "champion", "2")
    assert client.get_model_version_by_alias(name, "champion").version == "2"
    client.delete_registered_model_alias(name, "challenger")
    with pytest.raises(MlflowException, match="RESOURCE_DOES_NOT_EXIST"):
        client.get_model_version_by_alias(name, "challenger")
    client.set_model_version_tag(name, "2", "validated", "yes")
    client.update_registered_model(name, description="two trees")
    found = client.search_model_versions(f"name = '{name}'")
    assert sorted(v.version for v in found) == ["1", "2"]
    assert [m.name for m in client.search_registered_models(filter_string=f"name = '{name}'")] == [name]
    latest = mlflow.pyfunc.load_model(f"models:/{name}/latest")
    assert list(latest.predict(probe)) == [0, 1]
    client.delete_model_version(name, "1")
    client.delete_registered_model(name)
    with pytest.raises(MlflowException, match="RESOURCE_DOES_NOT_EXIST"):
        client.get_registered_model(name)
