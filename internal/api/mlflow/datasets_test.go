package mlflow_test

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// v3 is a client of MLflow's 3.0 paths.
func (c *client) v3() *client {
	cl := *c
	cl.prefix = "/api/3.0/mlflow/"
	return &cl
}

func tagsOf(t *testing.T, d any) map[string]string {
	t.Helper()
	out := map[string]string{}
	if err := json.Unmarshal([]byte(str(d, "tags")), &out); err != nil {
		t.Fatalf("tags are a JSON object in a string: %v (%v)", d, err)
	}
	return out
}

func TestEvalDatasets(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		v3 := c.v3()
		exp := c.experiment(t, "eval-datasets")
		made := v3.post(t, "datasets/create", map[string]any{"name": "golden", "experiment_ids": []string{exp},
			"tags": `{"env": "dev", "mlflow.user": "ann", "n": 3}`}).ok(t)
		id := str(made, "dataset", "dataset_id")
		if !strings.HasPrefix(id, "d-") || str(made, "dataset", "name") != "golden" || str(made, "dataset", "created_by") != "ann" ||
			str(made, "dataset", "digest") == "" || str(made, "dataset", "experiment_ids", 0) != exp {
			t.Fatalf("created: %s", made)
		}
		if tags := tagsOf(t, at(made, "dataset")); tags["env"] != "dev" || tags["n"] != "3" {
			t.Fatalf("tags: %v", tags)
		}
		got := v3.get(t, "datasets/"+id, nil).ok(t)
		if str(got, "dataset", "dataset_id") != id || str(got, "dataset", "experiment_ids", 0) != exp {
			t.Fatalf("get: %v", got)
		}
		if ids := v3.get(t, "datasets/"+id+"/experiment-ids", nil).ok(t); str(ids, "experiment_ids", 0) != exp {
			t.Fatalf("experiment ids: %v", ids)
		}

		// tags: merged, then one removed (a missing one is no error)
		v3.do(t, "PATCH", "datasets/"+id+"/tags", map[string]any{"tags": `{"env": "prod", "new": "x"}`}, nil).ok(t)
		v3.do(t, "DELETE", "datasets/"+id+"/tags/new", nil, nil).ok(t)
		v3.do(t, "DELETE", "datasets/"+id+"/tags/never", nil, nil).ok(t)
		if tags := tagsOf(t, at(v3.get(t, "datasets/"+id, nil).ok(t), "dataset")); tags["env"] != "prod" || tags["new"] != "" || tags["n"] != "3" {
			t.Fatalf("tags after the changes: %v", tags)
		}

		// records: upserted by inputs, whatever their key order
		up := v3.post(t, "datasets/"+id+"/records", map[string]any{"records": `[
			{"inputs": {"q": "2+2", "lang": "en"}, "expectations": {"answer": "4"}},
			{"inputs": {"q": "capital of France"}, "expectations": {"answer": "Paris"}, "tags": {"mlflow.user": "bob"}}]`}).ok(t)
		if at(up, "inserted_count") != 2.0 || at(up, "updated_count") != 0.0 {
			t.Fatalf("first upsert: %v", up)
		}
		up = v3.post(t, "datasets/"+id+"/records", map[string]any{"records": `[{"inputs": {"lang": "en", "q": "2+2"}, "expectations": {"why": "sum"}}]`}).ok(t)
		if at(up, "updated_count") != 1.0 || at(up, "inserted_count") != 0.0 {
			t.Fatalf("second upsert: %v", up)
		}
		recs := v3.get(t, "datasets/"+id+"/records", url.Values{"max_results": {"1"}}).ok(t)
		var page []map[string]any
		if err := json.Unmarshal([]byte(str(recs, "records")), &page); err != nil || len(page) != 1 || str(recs, "next_page_token") == "" {
			t.Fatalf("first page: %v (%v)", recs, err)
		}
		if at(page[0], "expectations", "answer") != "4" || at(page[0], "expectations", "why") != "sum" || str(page[0], "dataset_id") != id ||
			!strings.HasPrefix(str(page[0], "dataset_record_id"), "dr-") {
			t.Fatalf("merged record: %v", page[0])
		}
		recs = v3.get(t, "datasets/"+id+"/records", url.Values{"page_token": {str(recs, "next_page_token")}}).ok(t)
		if err := json.Unmarshal([]byte(str(recs, "records")), &page); err != nil || len(page) != 1 || str(page[0], "created_by") != "bob" {
			t.Fatalf("second page: %v", recs)
		}
		ds := v3.get(t, "datasets/"+id, nil).ok(t)
		if !strings.Contains(str(ds, "dataset", "profile"), `"num_records": 2`) || !strings.Contains(str(ds, "dataset", "schema"), `"q":"string"`) {
			t.Fatalf("profile and schema: %v", ds)
		}

		// search: experiments, filter, order
		other := c.experiment(t, "eval-datasets-2")
		v3.post(t, "datasets/create", map[string]any{"name": "another", "experiment_ids": []string{other}, "tags": `{"env": "dev"}`}).ok(t)
		found := v3.post(t, "datasets/search", map[string]any{"experiment_ids": []string{exp}}).ok(t)
		if l, _ := at(found, "datasets").([]any); len(l) != 1 || str(l[0], "dataset_id") != id {
			t.Fatalf("search by experiment: %v", found)
		}
		found = v3.post(t, "datasets/search", map[string]any{"filter_string": "tags.env = 'dev'"}).ok(t)
		if l, _ := at(found, "datasets").([]any); len(l) != 1 || str(l[0], "name") != "another" {
			t.Fatalf("search by tag: %v", found)
		}
		found = v3.get(t, "datasets/search", url.Values{"order_by": {"name ASC"}, "max_results": {"1"}}).ok(t)
		if str(found, "datasets", 0, "name") != "another" || str(found, "next_page_token") == "" {
			t.Fatalf("ordered page: %v", found)
		}

		// delete: then not found; deleting again succeeds, as in MLflow
		v3.do(t, "DELETE", "datasets/"+id, nil, nil).ok(t)
		v3.get(t, "datasets/"+id, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "not found")
		v3.get(t, "datasets/"+id+"/records", nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", "not found")
		v3.do(t, "DELETE", "datasets/"+id, nil, nil).ok(t)
	})
}

func TestEvalDatasetsBadInput(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		v3 := c.v3()
		exp := c.experiment(t, "eval-bad")
		id := str(v3.post(t, "datasets/create", map[string]any{"name": "d", "experiment_ids": []string{exp}}).ok(t), "dataset", "dataset_id")
		for _, tc := range []struct {
			name, method, path string
			body               any
			q                  url.Values
			status             int
			code, part         string
		}{
			{"no name", "POST", "datasets/create", map[string]any{}, nil, 400, "INVALID_PARAMETER_VALUE", "'name'"},
			{"long name", "POST", "datasets/create", map[string]any{"name": strings.Repeat("n", 501)}, nil, 400, "INVALID_PARAMETER_VALUE", "limit of 500"},
			{"tags not JSON", "POST", "datasets/create", map[string]any{"name": "x", "tags": "env=dev"}, nil, 400, "INVALID_PARAMETER_VALUE", "'tags'"},
			{"tags a list", "POST", "datasets/create", map[string]any{"name": "x", "tags": []string{"a"}}, nil, 400, "INVALID_PARAMETER_VALUE", "'tags'"},
			{"unknown experiment", "POST", "datasets/create", map[string]any{"name": "x", "experiment_ids": []string{"nope"}}, nil, 404, "RESOURCE_DOES_NOT_EXIST", "nope"},
			{"too many experiments", "POST", "datasets/create", map[string]any{"name": "x", "experiment_ids": make([]string, 101)}, nil, 400, "INVALID_PARAMETER_VALUE", "At most 100"},
			{"set tags without tags", "PATCH", "datasets/" + id + "/tags", map[string]any{}, nil, 400, "INVALID_PARAMETER_VALUE", "'tags'"},
			{"records missing", "POST", "datasets/" + id + "/records", map[string]any{}, nil, 400, "INVALID_PARAMETER_VALUE", "'records'"},
			{"records not a list", "POST", "datasets/" + id + "/records", map[string]any{"records": `{"inputs": {}}`}, nil, 400, "INVALID_PARAMETER_VALUE", "JSON list"},
			{"inputs not an object", "POST", "datasets/" + id + "/records", map[string]any{"records": `[{"inputs": [1]}]`}, nil, 400, "INVALID_PARAMETER_VALUE", "'inputs'"},
			{"too many records", "POST", "datasets/" + id + "/records", map[string]any{"records": "[" + strings.TrimSuffix(strings.Repeat(`{"inputs": {}},`, 1001), ",") + "]"}, nil, 400, "INVALID_PARAMETER_VALUE", "limit per call is 1000"},
			{"records page too big", "GET", "datasets/" + id + "/records", nil, url.Values{"max_results": {"1001"}}, 400, "INVALID_PARAMETER_VALUE", "max_results"},
			{"bad page token", "GET", "datasets/" + id + "/records", nil, url.Values{"page_token": {"zz"}}, 400, "INVALID_PARAMETER_VALUE", ""},
			{"search page too big", "POST", "datasets/search", map[string]any{"max_results": 5000}, nil, 400, "INVALID_PARAMETER_VALUE", "max_results"},
			{"bad filter", "POST", "datasets/search", map[string]any{"filter_string": "colour = 'red'"}, nil, 400, "INVALID_PARAMETER_VALUE", "colour"},
			{"bad order", "POST", "datasets/search", map[string]any{"order_by": []string{"colour"}}, nil, 400, "INVALID_PARAMETER_VALUE", "colour"},
			{"unknown dataset", "GET", "datasets/d-nope", nil, nil, 404, "RESOURCE_DOES_NOT_EXIST", "d-nope"},
			{"tags of an unknown dataset", "PATCH", "datasets/d-nope/tags", map[string]any{"tags": `{"a": "b"}`}, nil, 404, "RESOURCE_DOES_NOT_EXIST", "d-nope"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				v3.do(t, tc.method, tc.path, tc.body, tc.q).fails(t, tc.status, tc.code, tc.part)
			})
		}
	})
}

// Another company sees none of a company's datasets and cannot link its
// own to them.
func TestEvalDatasetsCompanyIsolation(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		v3, them := c.v3(), c.as(otherUser).v3()
		exp := c.experiment(t, "eval-mine")
		id := str(v3.post(t, "datasets/create", map[string]any{"name": "mine", "experiment_ids": []string{exp}}).ok(t), "dataset", "dataset_id")
		them.get(t, "datasets/"+id, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		them.get(t, "datasets/"+id+"/records", nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		them.get(t, "datasets/"+id+"/experiment-ids", nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		them.do(t, "PATCH", "datasets/"+id+"/tags", map[string]any{"tags": `{"a": "b"}`}, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		them.post(t, "datasets/"+id+"/records", map[string]any{"records": `[{"inputs": {"a": 1}}]`}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", id)
		them.post(t, "datasets/create", map[string]any{"name": "x", "experiment_ids": []string{exp}}).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		if l := them.post(t, "datasets/search", map[string]any{}).ok(t); len(l) != 0 {
			t.Fatalf("their search: %v", l)
		}
		them.do(t, "DELETE", "datasets/"+id, nil, nil).ok(t) // nothing of theirs: a no-op
		v3.get(t, "datasets/"+id, nil).ok(t)
	})
}

// The UI's summaries of the datasets logged with runs.
func TestDatasetSummaries(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "summaries")
		run := c.run(t, exp, nil)
		input := func(name, digest, ctx string) map[string]any {
			in := map[string]any{"dataset": map[string]any{"name": name, "digest": digest, "source_type": "local", "source": "/d"}}
			if ctx != "" {
				in["tags"] = []map[string]string{{"key": "mlflow.data.context", "value": ctx}}
			}
			return in
		}
		c.post(t, "runs/log-inputs", map[string]any{"run_id": run, "datasets": []any{input("train", "d1", "training"), input("eval", "d2", "")}}).ok(t)
		run2 := c.run(t, exp, nil)
		c.post(t, "runs/log-inputs", map[string]any{"run_id": run2, "datasets": []any{input("train", "d1", "training")}}).ok(t)
		got := c.post(t, "experiments/search-datasets", map[string]any{"experiment_ids": []string{exp}}).ok(t)
		l, _ := at(got, "dataset_summaries").([]any)
		if len(l) != 2 {
			t.Fatalf("two distinct datasets: %v", got)
		}
		seen := map[string]string{}
		for _, s := range l {
			if str(s, "experiment_id") != exp {
				t.Fatalf("summary: %v", s)
			}
			seen[str(s, "name")+"/"+str(s, "digest")] = str(s, "context")
		}
		if seen["train/d1"] != "training" || seen["eval/d2"] != "" {
			t.Fatalf("summaries: %v", seen)
		}
		if l := c.as(otherUser).post(t, "experiments/search-datasets", map[string]any{"experiment_ids": []string{exp}}).ok(t); len(l) != 0 {
			t.Fatalf("another company's summaries: %v", l)
		}
		c.post(t, "experiments/search-datasets", map[string]any{}).fails(t, 400, "INVALID_PARAMETER_VALUE", "at least one experiment_id")
		c.post(t, "experiments/search-datasets", map[string]any{"experiment_ids": make([]string, 21)}).fails(t, 400, "INVALID_PARAMETER_VALUE", "more than 20")
	})
}
