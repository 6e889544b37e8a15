package tasks_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/testenv"
)

// TestTaskAnswersPinned pins, byte for byte on both backends, the answers
// that carry a whole task or its items: tasks.get_by_id of a bare task and
// of a task with every member set (through the API, and through the store
// for what only workers and events write), for the current and the legacy
// API version, tasks.edit's fields, get_hyper_params and
// get_configurations. Timestamps and ids are masked (testenv.Pinned).
func TestTaskAnswersPinned(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := mkProject(t, e, "pinned tasks")
		bare := mkTask(t, e, "bare task", nil)
		parent := mkTask(t, e, "parent task", nil)
		company := getTask(t, e, bare)["company"].(string)
		in, out := mkModel(t, e, company, "", "s3://m/in", true), mkModel(t, e, company, parent, "s3://m/out", true)
		full := mkTask(t, e, "full task", obj{"comment": "a comment", "parent": parent, "project": p,
			"output_dest": "s3://bucket/out", "tags": []string{"b", "a"}, "system_tags": []string{"sys"},
			"execution": obj{"framework": "pytorch", "test_split": 3, "docker_cmd": "img:1 --gpus all",
				"model_labels": obj{"cat": 1, "dog": 2.0}, "parameters": obj{"legacy_lr": 0.5, "TF_DEFINE/x": "y"},
				"model_desc": obj{"net": obj{"layers": 2}},
				"artifacts": []obj{
					{"key": "plain", "type": "custom", "uri": "s3://a/plain"},
					{"key": "empty", "type": "custom", "uri": "s3://a/empty", "display_data": []any{}},
					{"key": "rich", "type": "pandas", "mode": "input", "uri": "s3://a/rich", "hash": "h", "content_size": 10,
						"timestamp": 1700000000, "type_data": obj{"preview": "p"}, "display_data": [][]any{{"rows", 3}}},
				}},
			"script": obj{"binary": "python3", "repository": "https://git/r.git", "tag": "v1", "branch": "main",
				"version_num": "abc", "entry_point": "train.py", "working_dir": ".", "requirements": obj{"pip": []string{"torch"}},
				"diff": "--- a"},
			"hyperparams": obj{"Args": obj{"lr": obj{"section": "Args", "name": "lr", "value": "0.1", "type": "float",
				"description": "learning rate"}, "epochs": obj{"section": "Args", "name": "epochs", "value": "5"}}},
			"configuration": obj{"General": obj{"name": "General", "value": "{}", "type": "dictionary", "description": "d"},
				"Plain": obj{"name": "Plain", "value": "x"}},
			"models":    obj{"input": []obj{{"name": "in", "model": in}}, "output": []obj{{"name": "out", "model": out}}},
			"container": obj{"image": "nvidia/cuda", "arguments": nil},
			"runtime":   obj{"gpu": 1, "nested": obj{"x": []any{1.5, "s", nil}}}})
		edit := e.Call(t, "tasks.edit", obj{"task": full, "comment": "edited", "execution": obj{"queue": "q1", "test_split": 4}}).OK(t)
		e.Call(t, "tasks.started", obj{"task": full}).OK(t)
		e.Call(t, "tasks.completed", obj{"task": full, "status_reason": "enough", "status_message": "bye", "force": true}).OK(t)
		e.Call(t, "tasks.publish", obj{"task": full}).OK(t)
		first, mean := jsonx.Float(0.25), jsonx.Float(0.5)
		iter, label := int64(1), "epoch"
		patchTask(t, e, full, func(tk *store.Task) {
			tk.LastIteration, tk.LastWorker, tk.EnqueueStatus = 9, "worker:0", "queued"
			report := tk.LastUpdate
			tk.LastWorkerReport = &report
			tk.Output.Error, tk.Output.Result = ptr("none"), ptr("ok")
			tk.LastMetrics = map[string]map[string]*store.MetricSummary{"hash-loss": {"hash-train": {Metric: "loss",
				Variant: "train", Value: 0.75, MinValue: 0.25, MinValueIteration: 1, MaxValue: 1e21, MaxValueIteration: 9,
				FirstValue: &first, FirstValueIteration: &iter, MeanValue: &mean, Count: 9, XAxisLabel: &label}}}
			tk.MetricStats = map[string]any{"hash-loss": map[string]any{"metric": "loss", "event_stats_by_type": map[string]any{}}}
			tk.ReportAssets = []string{"s3://a/asset.png"}
		})
		task := e.Call(t, "tasks.get_by_id", obj{"task": full}).OK(t)
		names := map[string]string{"<full>": full, "<bare>": bare, "<parent>": parent, "<project>": p,
			"<model-in>": in, "<model-out>": out, "<company>": company, "<user>": task.Str("task.user")}
		testenv.CheckPinned(t, names, []testenv.PinnedCase{
			{Name: "bare", Got: e.Call(t, "tasks.get_by_id", obj{"task": bare}).OK(t), Want: pinnedBareTask},
			{Name: "full", Got: task, Want: pinnedFullTask},
			{Name: "full, API 2.8", Got: e.Call(t, "v2.8/tasks.get_by_id", obj{"task": full}).OK(t), Want: pinnedLegacyTask},
			{Name: "edit", Got: edit, Want: pinnedTaskEdit},
			{Name: "hyper params", Got: e.Call(t, "tasks.get_hyper_params", obj{"tasks": []string{full, bare}}).OK(t), Want: pinnedHyperParams},
			{Name: "configurations", Got: e.Call(t, "tasks.get_configurations", obj{"tasks": []string{full}}).OK(t), Want: pinnedConfigurations},
		})
	})
}

func ptr(s string) *string { return &s }

const (
	pinnedBareTask       = `{"task":{"id":"<bare>","company":"<company>","user":"<user>","name":"bare task","type":"training","status":"created","created":"<time>","output":{},"execution":{"parameters":{},"model_desc":{},"model_labels":{},"artifacts":[],"test_split":0},"script":{"binary":"python","repository":"","entry_point":"","requirements":{}},"tags":[],"system_tags":[],"last_update":"<time>","last_change":"<time>","last_changed_by":"<user>","last_iteration":0,"last_metrics":{},"metric_stats":{},"hyperparams":{},"configuration":{},"runtime":{},"models":{"input":[],"output":[]},"container":{},"report_assets":[]}}`
	pinnedFullTask       = `{"task":{"id":"<full>","company":"<company>","user":"<user>","name":"full task","type":"training","status":"published","status_reason":"","status_message":"","status_changed":"<time>","comment":"edited","created":"<time>","started":"<time>","completed":"<time>","published":"<time>","parent":"<parent>","project":"<project>","output":{"destination":"s3://bucket/out","error":"none","result":"ok"},"execution":{"queue":"q1","parameters":{},"model_desc":{},"model_labels":{"cat":1,"dog":2},"framework":"pytorch","artifacts":[{"key":"empty","type":"custom","mode":"output","uri":"s3://a/empty","display_data":[]},{"key":"plain","type":"custom","mode":"output","uri":"s3://a/plain","display_data":[]},{"key":"rich","type":"pandas","mode":"input","uri":"s3://a/rich","hash":"h","content_size":10,"timestamp":1700000000,"type_data":{"preview":"p"},"display_data":[["rows",3]]}],"test_split":4},"script":{"binary":"python3","repository":"https://git/r.git","tag":"v1","branch":"main","version_num":"abc","entry_point":"train.py","working_dir":".","requirements":{"pip":["torch"]},"diff":"--- a"},"tags":["a","b"],"system_tags":["sys"],"last_update":"<time>","last_change":"<time>","last_changed_by":"<user>","last_iteration":9,"last_metrics":{"hash-loss":{"hash-train":{"metric":"loss","variant":"train","value":0.75,"min_value":0.25,"min_value_iteration":1,"max_value":1e+21,"max_value_iteration":9,"first_value":0.25,"first_value_iteration":1,"mean_value":0.5,"count":9,"x_axis_label":"epoch"}}},"metric_stats":{"hash-loss":{"event_stats_by_type":{},"metric":"loss"}},"hyperparams":{"Args":{"epochs":{"section":"Args","name":"epochs","value":"5"},"legacy_lr":{"section":"Args","name":"legacy_lr","value":"0.5","type":"legacy"},"lr":{"section":"Args","name":"lr","value":"0.1","type":"float","description":"learning rate"}},"TF_DEFINE":{"x":{"section":"TF_DEFINE","name":"x","value":"y","type":"legacy"}}},"configuration":{"General":{"name":"General","value":"{}","type":"dictionary","description":"d"},"Plain":{"name":"Plain","value":"x"},"net":{"name":"net","value":"{\"layers\":2}","type":"legacy"}},"runtime":{"gpu":1,"nested":{"x":[1.5,"s",null]}},"models":{"input":[{"name":"in","model":"<model-in>","updated":"<time>"}],"output":[{"name":"out","model":"<model-out>","updated":"<time>"}]},"container":{"arguments":"--gpus all","image":"img:1"},"report_assets":["s3://a/asset.png"],"last_worker":"worker:0","last_worker_report":"<time>","enqueue_status":"queued"}}`
	pinnedLegacyTask     = `{"task":{"id":"<full>","company":"<company>","user":"<user>","name":"full task","type":"training","status":"published","status_reason":"","status_message":"","status_changed":"<time>","comment":"edited","created":"<time>","started":"<time>","completed":"<time>","published":"<time>","parent":"<parent>","project":"<project>","output":{"destination":"s3://bucket/out","error":"none","result":"ok"},"execution":{"queue":"q1","parameters":{"TF_DEFINE/x":"y","legacy_lr":"0.5"},"model_desc":{"net":"{\"layers\":2}"},"model_labels":{"cat":1,"dog":2},"framework":"pytorch","artifacts":[{"key":"empty","type":"custom","mode":"output","uri":"s3://a/empty","display_data":[]},{"key":"plain","type":"custom","mode":"output","uri":"s3://a/plain","display_data":[]},{"key":"rich","type":"pandas","mode":"input","uri":"s3://a/rich","hash":"h","content_size":10,"timestamp":1700000000,"type_data":{"preview":"p"},"display_data":[["rows",3]]}],"test_split":4},"script":{"binary":"python3","repository":"https://git/r.git","tag":"v1","branch":"main","version_num":"abc","entry_point":"train.py","working_dir":".","requirements":{"pip":["torch"]},"diff":"--- a"},"tags":["a","b"],"system_tags":["sys"],"last_update":"<time>","last_change":"<time>","last_changed_by":"<user>","last_iteration":9,"last_metrics":{"hash-loss":{"hash-train":{"metric":"loss","variant":"train","value":0.75,"min_value":0.25,"min_value_iteration":1,"max_value":1e+21,"max_value_iteration":9,"first_value":0.25,"first_value_iteration":1,"mean_value":0.5,"count":9,"x_axis_label":"epoch"}}},"metric_stats":{"hash-loss":{"event_stats_by_type":{},"metric":"loss"}},"hyperparams":{"Args":{"epochs":{"section":"Args","name":"epochs","value":"5"},"legacy_lr":{"section":"Args","name":"legacy_lr","value":"0.5","type":"legacy"},"lr":{"section":"Args","name":"lr","value":"0.1","type":"float","description":"learning rate"}},"TF_DEFINE":{"x":{"section":"TF_DEFINE","name":"x","value":"y","type":"legacy"}}},"configuration":{"General":{"name":"General","value":"{}","type":"dictionary","description":"d"},"Plain":{"name":"Plain","value":"x"},"net":{"name":"net","value":"{\"layers\":2}","type":"legacy"}},"runtime":{"gpu":1,"nested":{"x":[1.5,"s",null]}},"models":{"input":[{"name":"in","model":"<model-in>","updated":"<time>"}],"output":[{"name":"out","model":"<model-out>","updated":"<time>"}]},"container":{"arguments":"--gpus all","image":"img:1"},"report_assets":["s3://a/asset.png"],"last_worker":"worker:0","last_worker_report":"<time>","enqueue_status":"queued"}}`
	pinnedTaskEdit       = `{"updated":1,"fields":{"comment":"edited","execution":{"queue":"q1","parameters":{},"model_desc":{},"model_labels":{"cat":1,"dog":2},"framework":"pytorch","artifacts":[{"key":"empty","type":"custom","mode":"output","uri":"s3://a/empty"},{"key":"plain","type":"custom","mode":"output","uri":"s3://a/plain"},{"key":"rich","type":"pandas","mode":"input","uri":"s3://a/rich","hash":"h","content_size":10,"timestamp":1700000000,"type_data":{"preview":"p"},"display_data":[["rows",3]]}],"test_split":4},"last_change":"<time>","last_changed_by":"<user>","last_update":"<time>"}}`
	pinnedHyperParams    = `{"params":[{"task":"<full>","hyperparams":[{"section":"Args","name":"epochs","value":"5"},{"section":"Args","name":"legacy_lr","value":"0.5","type":"legacy"},{"section":"Args","name":"lr","value":"0.1","type":"float","description":"learning rate"},{"section":"TF_DEFINE","name":"x","value":"y","type":"legacy"}]},{"task":"<bare>","hyperparams":[]}]}`
	pinnedConfigurations = `{"configurations":[{"task":"<full>","configuration":[{"name":"General","value":"{}","type":"dictionary","description":"d"},{"name":"Plain","value":"x"},{"name":"net","value":"{\"layers\":2}","type":"legacy"}]}]}`
)
