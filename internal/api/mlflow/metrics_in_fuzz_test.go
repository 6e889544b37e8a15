package mlflow

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMetricsIn: the member-by-member reading of a request body and of
// log-batch's metrics never panics, and what it accepts it reads as
// encoding/json does. (Bodies with upper-case or non-ASCII letters are
// left out: encoding/json also matches member names case-insensitively,
// MLflow's server and this reader do not.)
func FuzzMetricsIn(f *testing.F) {
	for _, s := range []string{
		`{"run_id": "r", "metrics": [{"key": "loss", "value": 0.5, "timestamp": 1, "step": 0}]}`,
		`{"metrics": [null, {"key": "a", "value": "NaN", "timestamp": "2", "step": null, "dataset_name": "d"}]}`,
		`{"metrics": [{"key": 1}]}`, `{"metrics": {"key": "a"}}`, `{"metrics": [], "metrics": [{"key": "b"}]}`,
		`{"metrics": [{"key": "a\"b", "model_id": "m", "extra": {"x": [1, 2]}}]}`, `{"metrics": [1]}`, `[]`, `{"a": 1,}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := &call{params: map[string]json.RawMessage{}}
		if bodyParams(b, c.params) != nil {
			return
		}
		got, err := metricsIn(c)
		if err != nil {
			return
		}
		for _, ch := range b {
			if (ch >= 'A' && ch <= 'Z') || ch >= 0x80 || ch == '\\' {
				return
			}
		}
		var want struct {
			Metrics []metricIn `json:"metrics"`
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("%q read, encoding/json refuses it: %v", b, err)
		}
		if len(got) != len(want.Metrics) {
			t.Fatalf("%q: %d metrics, encoding/json %d", b, len(got), len(want.Metrics))
		}
		for i, g := range got {
			w := want.Metrics[i]
			if g.Key != w.Key || g.ModelID != w.ModelID || g.DatasetName != w.DatasetName || g.DatasetDigest != w.DatasetDigest ||
				!bytes.Equal(g.Value, w.Value) || !bytes.Equal(g.Timestamp, w.Timestamp) || !bytes.Equal(g.Step, w.Step) {
				t.Fatalf("%q: metric %d read as %+v, encoding/json %+v", b, i, g, w)
			}
		}
	})
}
