package store

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/jsonx"
)

// memoTask is a reporting task with members of every kind the memo keeps
// encoded (hyper-parameters, input models, configuration).
func memoTask() *Task {
	started := jsonx.Time{Time: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
	return &Task{ID: "t1", Company: "c", Name: "run <1>", Status: "in_progress", Started: &started,
		Hyperparams:   map[string]map[string]*ParamItem{"Args": {"lr": {Section: "Args", Name: "lr", Value: "0.1"}}},
		Configuration: map[string]*ConfigItem{"General": {Name: "General", Value: "a: 1"}},
		Models:        TaskModels{Input: []*TaskModelItem{{Name: "base", Model: "m1"}}},
		LastMetrics: map[string]map[string]*MetricSummary{
			"loss": {"train": {Metric: "loss", Variant: "train", Value: 1, Count: 1}, "val": nil},
			"acc":  {"top1": {Metric: "acc", Variant: "top1", Value: 0.5, Count: 1}},
			"gone": nil,
		},
		MetricStats: map[string]any{"loss": map[string]any{"metric": "loss"}},
	}
}

// summaryChange changes a task the way a batch of scalars does: values,
// counts, times and the last iteration, names unchanged.
func summaryChange(t *Task, iter int64) {
	c := *t
	c.LastMetrics = map[string]map[string]*MetricSummary{}
	for mk, vs := range t.LastMetrics {
		if vs == nil {
			c.LastMetrics[mk] = nil
			continue
		}
		c.LastMetrics[mk] = map[string]*MetricSummary{}
		for vk, s := range vs {
			if s != nil {
				sc := *s
				sc.Value, sc.Count = jsonx.Float(iter)/7, sc.Count+1
				s = &sc
			}
			c.LastMetrics[mk][vk] = s
		}
	}
	c.LastIteration = iter
	now := jsonx.Time{Time: time.Date(2026, 11, 25, 10, 0, int(iter), 0, time.UTC)}
	c.LastUpdate, c.LastChange, c.LastChangedBy = now, now, "u"
	d := iter * 3
	c.ActiveDuration = &d
	*t = c
}

// TestEncodeTaskReusesMemo holds every encoding made from a memo to the
// one made afresh, whatever the batch changed of last_metrics.
func TestEncodeTaskReusesMemo(t *testing.T) {
	cases := map[string]func(*Task){
		"values only": func(*Task) {},
		"metric added": func(t *Task) {
			t.LastMetrics["new"] = map[string]*MetricSummary{"v": {Metric: "new", Variant: "v"}}
		},
		"variant added": func(t *Task) { t.LastMetrics["acc"]["top5"] = &MetricSummary{Metric: "acc", Variant: "top5"} },
		"names changed": func(t *Task) { t.LastMetrics["acc"]["top1"].Metric = "accuracy" },
		"entry to nil":  func(t *Task) { t.LastMetrics["acc"]["top1"] = nil },
		"nil to entry": func(t *Task) {
			t.LastMetrics["loss"]["val"] = &MetricSummary{Metric: "loss", Variant: "val"}
		},
		"metric to nil":       func(t *Task) { t.LastMetrics["acc"] = nil },
		"same count, swapped": func(t *Task) { delete(t.LastMetrics, "gone"); t.LastMetrics["zzz"] = nil },
		"emptied":             func(t *Task) { t.LastMetrics = map[string]map[string]*MetricSummary{} },
		"nil last_metrics":    func(t *Task) { t.LastMetrics = nil },
		// MLflow's log-batch rewrites the mlflow member with the summary
		"mlflow added": func(t *Task) {
			n := 0.5
			t.MLflow = &MLflowRun{Tags: map[string]string{"a": "<b>"}, Metrics: map[string]*LatestMetric{"loss": {Value: "0.5", Num: &n, Step: 3}}}
		},
		"mlflow changed": func(t *Task) {
			t.MLflow = &MLflowRun{ScalarHistory: true, Metrics: map[string]*LatestMetric{"acc": {Value: "NaN", Timestamp: 9}}}
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			task := memoTask()
			first, err := EncodeTask(task, nil)
			if err != nil {
				t.Fatal(err)
			}
			checkAgainstFresh(t, task, first)
			memo := first.TaskMemo
			for iter := int64(1); iter <= 3; iter++ {
				summaryChange(task, iter)
				if iter == 2 {
					change(task)
				}
				enc, err := EncodeTask(task, memo)
				if err != nil {
					t.Fatal(err)
				}
				checkAgainstFresh(t, task, enc)
				memo = enc.TaskMemo
			}
		})
	}
}

// checkAgainstFresh compares an encoding with the task's document and
// columns made afresh (AppendDoc, ColumnValues), and with Table.Encode's.
func checkAgainstFresh(t *testing.T, task *Task, enc *EncodedRecord) {
	t.Helper()
	doc, err := task.AppendDoc(nil)
	if err != nil {
		t.Fatal(err)
	}
	if enc.Doc != string(doc) {
		t.Fatalf("document:\n got  %s\n want %s", enc.Doc, doc)
	}
	if cols := task.ColumnValues(); !reflect.DeepEqual(enc.Cols, cols) {
		t.Fatalf("columns:\n got  %v\n want %v", enc.Cols, cols)
	}
	viaTable, err := (&Table[Task, *Task]{}).Encode(task)
	if err != nil {
		t.Fatal(err)
	}
	if viaTable.Doc != enc.Doc || !reflect.DeepEqual(viaTable.Cols, enc.Cols) {
		t.Fatalf("Table.Encode differs:\n got  %s %v\n want %s %v", viaTable.Doc, viaTable.Cols, enc.Doc, enc.Cols)
	}
	checkTaskDoc(t, task)
}

// TestMetricsSigStable pins the fingerprint to what earlier versions
// wrote: a changed encoding would make every task's name triggers redo
// their work once after an upgrade.
func TestMetricsSigStable(t *testing.T) {
	lm := map[string]map[string]*MetricSummary{
		"b": {"y": {Metric: "loss", Variant: "train"}, "x": nil, "z": {Metric: "b", Variant: "z"}},
		"a": {"v": {Metric: "a", Variant: "v"}},
		"n": nil,
	}
	for _, c := range []struct {
		lm   map[string]map[string]*MetricSummary
		want any
	}{
		{lm, "gvhg0TBqB3FLttDQ5nmfMavk"},
		{map[string]map[string]*MetricSummary{"e": {}}, "dCNOmK/nSY+12vHzasLXiswz"},
		{nil, ""},
	} {
		if got := metricsSig(c.lm); got != c.want {
			t.Errorf("metricsSig(%s) = %v, want %v", fmt.Sprint(c.lm), got, c.want)
		}
	}
}

// BenchmarkEncodeTask encodes a reporting task (5 metrics x 10 variants)
// afresh and from the memo of its previous encoding.
func BenchmarkEncodeTask(b *testing.B) {
	task := memoTask()
	task.LastMetrics = map[string]map[string]*MetricSummary{}
	for m := range 5 {
		metric := fmt.Sprintf("metric_%c", 'a'+m)
		task.LastMetrics[metric] = map[string]*MetricSummary{}
		for v := range 10 {
			variant := fmt.Sprintf("variant_%c", 'a'+v)
			task.LastMetrics[metric][variant] = &MetricSummary{Metric: metric, Variant: variant, Value: 0.123456789,
				MinValue: 0.01, MinValueIteration: 900, MaxValue: 1.5, MaxValueIteration: 2, Count: 1000}
		}
	}
	b.Run("fresh", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodeTask(task, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	first, _ := EncodeTask(task, nil)
	b.Run("memo", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodeTask(task, first.TaskMemo); err != nil {
				b.Fatal(err)
			}
		}
	})
}
