package mlflow_test

import (
	"net/url"
	"testing"
)

// TestRegistryModelsAndVersions: registered models with tags, versions
// numbered from 1, stages and the latest of each, aliases, rename and
// delete, in MLflow's shapes and errors.
func TestRegistryModelsAndVersions(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		run := c.run(t, c.experiment(t, "registry-exp"), nil)
		m := c.post(t, "registered-models/create", map[string]any{"name": "clf", "description": "d",
			"tags": []map[string]string{{"key": "team", "value": "a"}}}).ok(t)
		if str(m, "registered_model", "name") != "clf" || kv(at(m, "registered_model", "tags"))["team"] != "a" {
			t.Fatalf("create: %v", m)
		}
		c.post(t, "registered-models/create", map[string]any{"name": "clf"}).fails(t, 400, "RESOURCE_ALREADY_EXISTS", "already exists")
		c.post(t, "registered-models/create", map[string]any{"name": ""}).fails(t, 400, "INVALID_PARAMETER_VALUE", "'name'")
		for i := 1; i <= 3; i++ {
			v := c.post(t, "model-versions/create", map[string]any{"name": "clf", "source": "mlflow-artifacts:/1/" + run + "/artifacts/model", "run_id": run}).ok(t)
			if str(v, "model_version", "version") != []string{"", "1", "2", "3"}[i] || str(v, "model_version", "current_stage") != "None" ||
				str(v, "model_version", "status") != "READY" {
				t.Fatalf("version %d: %v", i, v)
			}
		}
		c.post(t, "model-versions/create", map[string]any{"name": "clf", "source": "/etc/passwd"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "source")
		c.post(t, "model-versions/create", map[string]any{"name": "nope", "source": "s3://b/k"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "nope")
		c.post(t, "model-versions/transition-stage", map[string]any{"name": "clf", "version": "1", "stage": "production"}).ok(t)
		v := c.post(t, "model-versions/transition-stage", map[string]any{"name": "clf", "version": "2", "stage": "Production", "archive_existing_versions": true}).ok(t)
		if str(v, "model_version", "current_stage") != "Production" {
			t.Fatalf("transition: %v", v)
		}
		c.post(t, "model-versions/transition-stage", map[string]any{"name": "clf", "version": "2", "stage": "Live"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "stage")
		got := c.get(t, "model-versions/get", url.Values{"name": {"clf"}, "version": {"1"}}).ok(t)
		if str(got, "model_version", "current_stage") != "Archived" {
			t.Fatalf("version 1 after archive_existing_versions: %v", got)
		}
		latest := c.post(t, "registered-models/get-latest-versions", map[string]any{"name": "clf", "stages": []string{"Production", "None"}}).ok(t)
		if str(latest, "model_versions", 0, "version") != "2" || str(latest, "model_versions", 1, "version") != "3" {
			t.Fatalf("latest: %v", latest)
		}
		// aliases
		c.post(t, "registered-models/alias", map[string]any{"name": "clf", "alias": "champion", "version": "2"}).ok(t)
		c.post(t, "registered-models/alias", map[string]any{"name": "clf", "alias": "latest", "version": "2"}).fails(t, 400, "INVALID_PARAMETER_VALUE", "reserved")
		c.post(t, "registered-models/alias", map[string]any{"name": "clf", "alias": "x", "version": "9"}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "version=9")
		byAlias := c.get(t, "registered-models/alias", url.Values{"name": {"clf"}, "alias": {"champion"}}).ok(t)
		if str(byAlias, "model_version", "version") != "2" || str(byAlias, "model_version", "aliases", 0) != "champion" {
			t.Fatalf("by alias: %v", byAlias)
		}
		c.as(guestUser).post(t, "registered-models/alias", map[string]any{"name": "clf", "alias": "g", "version": "1"}).fails(t, 403, "PERMISSION_DENIED", "")
		c.as(guestUser).get(t, "registered-models/alias", url.Values{"name": {"clf"}, "alias": {"champion"}}).ok(t)
		c.do(t, "DELETE", "registered-models/alias", map[string]any{"name": "clf", "alias": "champion"}, nil).ok(t)
		c.get(t, "registered-models/alias", url.Values{"name": {"clf"}, "alias": {"champion"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "champion")
		// tags, description, download uri
		c.post(t, "model-versions/set-tag", map[string]any{"name": "clf", "version": "3", "key": "k", "value": "v"}).ok(t)
		c.do(t, "PATCH", "model-versions/update", map[string]any{"name": "clf", "version": "3", "description": "third"}, nil).ok(t)
		got = c.get(t, "model-versions/get", url.Values{"name": {"clf"}, "version": {"3"}}).ok(t)
		if kv(at(got, "model_version", "tags"))["k"] != "v" || str(got, "model_version", "description") != "third" {
			t.Fatalf("version 3: %v", got)
		}
		uri := c.get(t, "model-versions/get-download-uri", url.Values{"name": {"clf"}, "version": {"3"}}).ok(t)
		if str(uri, "artifact_uri") != "mlflow-artifacts:/1/"+run+"/artifacts/model" {
			t.Fatalf("download uri: %v", uri)
		}
		c.get(t, "model-versions/get", url.Values{"name": {"clf"}, "version": {"x"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "version")
		// search
		c.post(t, "registered-models/create", map[string]any{"name": "other-model"}).ok(t)
		for _, tc := range []struct {
			filter string
			want   []string
		}{
			{"", []string{"clf", "other-model"}},
			{"name = 'clf'", []string{"clf"}},
			{"name LIKE 'oth%'", []string{"other-model"}},
			{"name ILIKE '%CLF%'", []string{"clf"}},
			{"tags.team = 'a'", []string{"clf"}},
			// MLflow 3's client adds this to every search: a model without the tag matches
			{"name = 'clf' AND tags.`mlflow.prompt.is_prompt` != 'true'", []string{"clf"}},
		} {
			res := c.get(t, "registered-models/search", url.Values{"filter": {tc.filter}}).ok(t)
			list, _ := at(res, "registered_models").([]any)
			if len(list) != len(tc.want) {
				t.Fatalf("search %q: %v", tc.filter, res)
			}
			for i, w := range tc.want {
				if str(list[i], "name") != w {
					t.Fatalf("search %q: %v", tc.filter, res)
				}
			}
		}
		c.get(t, "registered-models/search", url.Values{"filter": {"bogus = 'x'"}}).fails(t, 400, "INVALID_PARAMETER_VALUE", "bogus")
		page1 := c.get(t, "registered-models/search", url.Values{"max_results": {"1"}}).ok(t)
		if str(page1, "registered_models", 0, "name") != "clf" || str(page1, "next_page_token") == "" {
			t.Fatalf("page 1: %v", page1)
		}
		page2 := c.get(t, "registered-models/search", url.Values{"max_results": {"1"}, "page_token": {str(page1, "next_page_token")}}).ok(t)
		if str(page2, "registered_models", 0, "name") != "other-model" || str(page2, "next_page_token") != "" {
			t.Fatalf("page 2: %v", page2)
		}
		vs := c.get(t, "model-versions/search", url.Values{"filter": {"name = 'clf' AND run_id = '" + run + "'"}, "order_by": {"version_number ASC"}}).ok(t)
		if str(vs, "model_versions", 0, "version") != "1" || str(vs, "model_versions", 2, "version") != "3" {
			t.Fatalf("version search: %v", vs)
		}
		// rename keeps versions; delete a version, then the model
		r := c.post(t, "registered-models/rename", map[string]any{"name": "clf", "new_name": "clf2"}).ok(t)
		if str(r, "registered_model", "name") != "clf2" {
			t.Fatalf("rename: %v", r)
		}
		c.post(t, "registered-models/rename", map[string]any{"name": "clf2", "new_name": "other-model"}).fails(t, 400, "RESOURCE_ALREADY_EXISTS", "other-model")
		c.get(t, "model-versions/get", url.Values{"name": {"clf2"}, "version": {"2"}}).ok(t)
		c.do(t, "DELETE", "model-versions/delete", map[string]any{"name": "clf2", "version": "2"}, nil).ok(t)
		c.get(t, "model-versions/get", url.Values{"name": {"clf2"}, "version": {"2"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "version=2")
		v4 := c.post(t, "model-versions/create", map[string]any{"name": "clf2", "source": "s3://b/k"}).ok(t)
		if str(v4, "model_version", "version") != "4" {
			t.Fatalf("a deleted version's number is not reused: %v", v4)
		}
		c.do(t, "DELETE", "registered-models/delete", map[string]any{"name": "clf2"}, nil).ok(t)
		c.get(t, "registered-models/get", url.Values{"name": {"clf2"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "clf2")
		// company isolation
		c.as(otherUser).get(t, "registered-models/get", url.Values{"name": {"other-model"}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "other-model")
	})
}
