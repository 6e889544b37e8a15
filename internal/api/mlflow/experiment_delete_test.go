package mlflow_test

import (
	"net/url"
	"testing"
)

// TestProjectDeleteTakesExperimentRecords: deleting a project through the
// ClearML API removes what the MLflow API keeps for it as an experiment
// (traces, scorers, evaluation dataset links), also for the Default
// experiment "0", whose next project starts empty.
func TestProjectDeleteTakesExperimentRecords(t *testing.T) {
	each(t, func(t *testing.T, c *client) {
		v3 := c.v3()
		exp := c.experiment(t, "to-delete")
		kept := c.experiment(t, "kept")
		tr := c.startTrace(t, exp, "tr-del-1", 1000, "OK", nil)
		other := c.startTrace(t, kept, "tr-kept-1", 1000, "OK", nil)
		v3.post(t, "scorers/register", map[string]any{"experiment_id": exp, "name": "s", "serialized_scorer": "{}"}).ok(t)
		ds := str(v3.post(t, "datasets/create", map[string]any{"name": "golden", "experiment_ids": []string{exp, kept}}).ok(t), "dataset", "dataset_id")

		c.e.Call(t, "projects.delete", map[string]any{"project": exp, "force": true, "delete_contents": true}).OK(t)
		v3.get(t, "traces/"+tr, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", tr)
		v3.get(t, "traces/"+other, nil).ok(t)
		ids := v3.get(t, "datasets/"+ds+"/experiment-ids", nil).ok(t)
		if l, _ := ids["experiment_ids"].([]any); len(l) != 1 || l[0] != kept {
			t.Fatalf("the dataset's experiments after the delete: %v", ids)
		}

		// the Default experiment: its records are kept under "0"
		d := c.startTrace(t, "0", "tr-default-1", 1000, "OK", nil)
		v3.post(t, "scorers/register", map[string]any{"experiment_id": "0", "name": "d", "serialized_scorer": "{}"}).ok(t)
		got := c.e.Call(t, "projects.get_all", map[string]any{"name": "^Default$", "only_fields": []string{"id"}}).OK(t)
		list, _ := got.Data["projects"].([]any)
		if len(list) != 1 {
			t.Fatalf("the Default project: %v", got.Data)
		}
		pid := str(list[0], "id")
		c.e.Call(t, "projects.delete", map[string]any{"project": pid, "force": true}).OK(t)
		v3.get(t, "traces/"+d, nil).fails(t, 404, "RESOURCE_DOES_NOT_EXIST", d)
		c.startTrace(t, "0", "tr-default-2", 2000, "OK", nil) // makes Default again
		if l, _ := at(v3.get(t, "scorers/list", url.Values{"experiment_id": {"0"}}).ok(t), "scorers").([]any); len(l) != 0 {
			t.Fatalf("the new Default experiment's scorers: %v", l)
		}
		s := v3.post(t, "traces/search", map[string]any{"locations": []map[string]any{{"type": "MLFLOW_EXPERIMENT",
			"mlflow_experiment": map[string]any{"experiment_id": "0"}}}}).ok(t)
		if l, _ := s["traces"].([]any); len(l) != 1 || str(l[0], "trace_id") != "tr-default-2" {
			t.Fatalf("the new Default experiment's traces: %v", s)
		}
	})
}
