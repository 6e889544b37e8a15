package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// taskDocFields is Task without its methods, for taskDocShell to embed.
type taskDocFields Task

// taskDocShell encodes every member of a task but last_metrics: its own
// last_metrics, declared first, hides the embedded one and encodes as a
// placeholder that AppendDoc replaces with the real member.
type taskDocShell struct {
	LastMetrics int `json:"last_metrics"`
	*taskDocFields
}

// taskShellPrefix is how every taskDocShell encoding starts.
const taskShellPrefix = `{"last_metrics":0`

// AppendDoc appends the task's stored document: what json.Marshal writes,
// with last_metrics moved to the front and written without reflection.
// Every ingested batch re-encodes its task, and last_metrics (one entry
// per metric and variant, most of a reporting task's document) cost most
// of that through encoding/json, which re-scans every Marshaler's output.
func (t *Task) AppendDoc(b []byte) ([]byte, error) {
	rest, err := json.Marshal(taskDocShell{taskDocFields: (*taskDocFields)(t)})
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(rest, []byte(taskShellPrefix)) {
		return nil, fmt.Errorf("task document starts %.20q", rest)
	}
	b = slices.Grow(b, len(rest)+lastMetricsSizeHint(t.LastMetrics))
	b = append(b, `{"last_metrics":`...)
	b = appendLastMetrics(b, t.LastMetrics)
	return append(b, rest[len(taskShellPrefix):]...), nil
}

// lastMetricsSizeHint is about the encoded size of a task's last_metrics.
func lastMetricsSizeHint(lm map[string]map[string]*MetricSummary) int {
	n := 2
	for _, vs := range lm {
		n += 320 * len(vs)
	}
	return n
}

// appendLastMetrics writes last_metrics as json.Marshal does: keys in
// byte order, strings HTML-escaped, nil maps and entries as null.
func appendLastMetrics(b []byte, lm map[string]map[string]*MetricSummary) []byte {
	if lm == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	for i, metric := range slices.Sorted(maps.Keys(lm)) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, metric, true)
		b = append(b, ':')
		vs := lm[metric]
		if vs == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '{')
		for j, variant := range slices.Sorted(maps.Keys(vs)) {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, variant, true)
			b = append(b, ':')
			if m := vs[variant]; m != nil {
				b = m.appendJSON(b, true)
			} else {
				b = append(b, "null"...)
			}
		}
		b = append(b, '}')
	}
	return append(b, '}')
}
