package mlflow_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestPromptlabRun(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "promptlab")
		body := map[string]any{"experiment_id": exp, "run_name": "try-1", "prompt_template": "Say {{ word }}",
			"prompt_parameters": []map[string]any{{"key": "word", "value": "hi"}}, "model_route": "chat",
			"model_parameters": []map[string]any{{"key": "temperature", "value": 0.1}}, "model_input": "Say hi",
			"model_output": "hi", "model_output_parameters": []map[string]any{{"key": "latency", "value": "100"}},
			"mlflow_version": "3.4.0", "user_id": "ann", "start_time": 456}
		got := c.post(t, "runs/create-promptlab-run", body).ok(t)
		info := at(got, "run", "info")
		if str(info, "run_name") != "try-1" || str(info, "experiment_id") != exp || str(info, "user_id") != "ann" ||
			str(info, "status") != "FINISHED" || at(info, "start_time") != 456.0 {
			t.Fatalf("run: %v", info)
		}
		params, tags := kv(at(got, "run", "data", "params")), kv(at(got, "run", "data", "tags"))
		if params["model_route"] != "chat" || params["prompt_template"] != "Say {{ word }}" || params["temperature"] != "0.1" {
			t.Fatalf("params: %v", params)
		}
		if tags["mlflow.loggedArtifacts"] != `[{"path": "eval_results_table.json", "type": "table"}]` || tags["mlflow.runSourceType"] != "PROMPT_ENGINEERING" {
			t.Fatalf("tags: %v", tags)
		}
		// the evaluation table is one of the run's artifacts
		run := str(info, "run_id")
		files := c.get(t, "artifacts/list", url.Values{"run_id": {run}}).ok(t)
		if str(files, "files", 0, "path") != "eval_results_table.json" {
			t.Fatalf("artifacts: %v", files)
		}
		status, _, raw := c.raw(t, "GET", "/get-artifact?run_uuid="+run+"&path=eval_results_table.json", nil)
		var table struct {
			Columns []string   `json:"columns"`
			Data    [][]string `json:"data"`
		}
		if status != 200 || json.Unmarshal(raw, &table) != nil || len(table.Data) != 1 ||
			fmt.Sprint(table.Columns) != "[word prompt output latency]" || fmt.Sprint(table.Data[0]) != "[hi Say hi hi 100]" {
			t.Fatalf("the evaluation table: %d %s", status, raw)
		}
		// the run is a Trove task of the experiment's project
		task := c.e.Call(t, "tasks.get_by_id", map[string]any{"task": run}).OK(t)
		if testenv.Get(task.Data, "task.project") != exp || testenv.Get(task.Data, "task.status") != "completed" {
			t.Fatalf("as a task: %s", task.Raw)
		}
	})
}

func TestPromptlabRunBadInput(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		exp := c.experiment(t, "promptlab-bad")
		full := func() map[string]any {
			return map[string]any{"experiment_id": exp, "prompt_template": "t", "prompt_parameters": []map[string]any{{"key": "k", "value": "v"}},
				"model_route": "r", "model_input": "i", "mlflow_version": "3.4.0"}
		}
		// MLflow's order: the first missing field is named
		for _, field := range []string{"experiment_id", "prompt_template", "prompt_parameters", "model_route", "model_input", "mlflow_version"} {
			body := full()
			delete(body, field)
			c.post(t, "runs/create-promptlab-run", body).fails(t, 400, "INVALID_PARAMETER_VALUE", "CreatePromptlabRun request must specify "+field+".")
		}
		many := full()
		params := make([]map[string]any, 101)
		for i := range params {
			params[i] = map[string]any{"key": fmt.Sprint("p", i), "value": "v"}
		}
		many["prompt_parameters"] = params
		c.post(t, "runs/create-promptlab-run", many).fails(t, 400, "INVALID_PARAMETER_VALUE", "limit is 100")
		long := full()
		long["model_parameters"] = []map[string]any{{"key": "k", "value": string(make([]byte, 6001))}}
		c.post(t, "runs/create-promptlab-run", long).fails(t, 400, "INVALID_PARAMETER_VALUE", "exceeded length limit of 6000")
		bad := full()
		bad["prompt_parameters"] = "word=hi"
		c.post(t, "runs/create-promptlab-run", bad).fails(t, 400, "INVALID_PARAMETER_VALUE", "prompt_parameters")
		// nothing was made by the refusals
		if l := c.post(t, "runs/search", map[string]any{"experiment_ids": []string{exp}}).ok(t); len(l) != 0 {
			t.Fatalf("runs after refusals: %v", l)
		}
		// another company's experiment does not exist for them
		c.as(otherUser).post(t, "runs/create-promptlab-run", full()).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", exp)
		c.as(guestUser).post(t, "runs/create-promptlab-run", full()).fails(t, 403, "PERMISSION_DENIED", "")
	})
}

// The UI lists the gateway's endpoints on every experiment page: Trove has
// no gateway, so none, under both prefixes, for a guest too; credentials
// are needed as everywhere. A POST would invoke a gateway route: there is
// none to invoke, and it is no read, so it is not offered.
func TestGatewayProxyHasNoEndpoints(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		for _, prefix := range []string{"/api/2.0/mlflow/", "/ajax-api/2.0/mlflow/"} {
			in := &client{e: c.e, auth: c.auth, prefix: prefix}
			answers := []*answer{
				in.get(t, "gateway-proxy", url.Values{"gateway_path": {"api/2.0/endpoints/"}}),
				in.as(guestUser).get(t, "gateway-proxy", nil),
			}
			for _, a := range answers {
				body := a.ok(t)
				if eps, ok := body["endpoints"].([]any); !ok || len(eps) != 0 || len(body) != 1 {
					t.Fatalf("%s gateway-proxy: %v, want only an empty endpoints list", prefix, body)
				}
			}
			(&client{e: c.e, prefix: prefix}).get(t, "gateway-proxy", nil).fails(t, 401, "UNAUTHENTICATED", "")
			in.post(t, "gateway-proxy", map[string]any{"gateway_path": "api/2.0/endpoints/"}).fails(t, 405, "BAD_REQUEST", "POST is not allowed")
		}
	})
}
