package store

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
)

// Two columns of a task (migration 0096) summarize what the name-index
// triggers of migration 0075 read from its document: params_sig the
// hyper-parameters, metrics_sig the set of reported metric/variant names.
// Every batch of scalars rewrites the task's last_metrics values, and
// comparing the old and new documents' JSON inside the triggers (parsing
// two 15 KB documents per write) was 40% of the CPU of many small writers.
// The triggers now compare these short strings, and redo their work only
// when one differs or is NULL (rows written before 0096, or by SQL that
// sets no signature), so a stale or missing signature costs time, never
// a wrong count.

// paramsSig fingerprints the hyper-parameters: any change to them changes it.
func paramsSig(params map[string]map[string]*ParamItem) any {
	if len(params) == 0 {
		return ""
	}
	b, err := json.Marshal(params) // map keys come out sorted
	if err != nil {
		return nil // no signature: the trigger does its full work
	}
	return digest(b)
}

// metricsSig fingerprints the set of (metric hash, variant hash, metric,
// variant) the metrics trigger indexes; values and counts do not enter it.
func metricsSig(metrics map[string]map[string]*MetricSummary) any {
	return orderOf(metrics).sig()
}

// modelsSig fingerprints the input models (migration 0102): the SQLite
// trigger keeping task_input_models rebuilds a task's rows only when it
// changes.
func modelsSig(input []*TaskModelItem) any {
	if len(input) == 0 {
		return ""
	}
	b, err := json.Marshal(input)
	if err != nil {
		return nil
	}
	return digest(b)
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return base64.RawStdEncoding.EncodeToString(sum[:18])
}
