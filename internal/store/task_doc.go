package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/trove-ml/trove/internal/jsonx"
)

// taskDocFields is Task without its methods, for taskDocShell to embed.
type taskDocFields Task

// taskDocShell encodes every member of a task but its summary, the
// members ingest rewrites with every batch (appendSummary writes those;
// MLflow's log-batch rewrites mlflow with every batch too): each is
// hidden by a member of the same name, nil and so omitted.
type taskDocShell struct {
	MLflow         *struct{} `json:"mlflow,omitempty"`
	LastMetrics    *struct{} `json:"last_metrics,omitempty"`
	MetricStats    *struct{} `json:"metric_stats,omitempty"`
	LastIteration  *struct{} `json:"last_iteration,omitempty"`
	LastUpdate     *struct{} `json:"last_update,omitempty"`
	LastChange     *struct{} `json:"last_change,omitempty"`
	LastChangedBy  *struct{} `json:"last_changed_by,omitempty"`
	ActiveDuration *struct{} `json:"active_duration,omitempty"`
	*taskDocFields
}

// AppendDoc appends the task's stored document: the members json.Marshal
// writes, with the summary first and written without reflection. Every
// ingested batch re-encodes its task, and last_metrics (one entry per
// metric and variant, most of a reporting task's document) cost most of
// that through encoding/json, which re-scans every Marshaler's output.
func (t *Task) AppendDoc(b []byte) ([]byte, error) {
	rest, err := t.encodeRest()
	if err != nil {
		return nil, err
	}
	return t.appendDocWithRest(b, rest, orderOf(t.LastMetrics))
}

// encodeRest encodes the members appendSummary does not write, as an
// object.
func (t *Task) encodeRest() ([]byte, error) {
	rest, err := json.Marshal(taskDocShell{taskDocFields: (*taskDocFields)(t)})
	if err != nil {
		return nil, err
	}
	if len(rest) < 2 || rest[0] != '{' {
		return nil, fmt.Errorf("task document starts %.20q", rest)
	}
	return rest, nil
}

// appendDocWithRest appends the document of a task whose other members
// encode as rest (encodeRest), its last_metrics in order.
func (t *Task) appendDocWithRest(b, rest []byte, order lmOrder) ([]byte, error) {
	b = slices.Grow(b, len(rest)+lastMetricsSizeHint(t.LastMetrics)+256)
	b, err := t.appendSummary(b, order)
	if err != nil {
		return nil, err
	}
	if len(rest) > 2 {
		b = append(b, ',')
	}
	return append(b, rest[1:]...), nil
}

// appendSummary appends "{" and the summary members (and mlflow), as
// json.Marshal writes them.
func (t *Task) appendSummary(b []byte, order lmOrder) ([]byte, error) {
	b = append(b, `{"last_metrics":`...)
	b = appendLastMetrics(b, t.LastMetrics, order)
	b = append(b, `,"metric_stats":`...)
	var err error
	if b, err = appendJSONAny(b, t.MetricStats); err != nil {
		return nil, err
	}
	b = append(b, `,"last_iteration":`...)
	b = strconv.AppendInt(b, t.LastIteration, 10)
	b = append(b, `,"last_update":`...)
	b = appendTime(b, t.LastUpdate)
	b = append(b, `,"last_change":`...)
	b = appendTime(b, t.LastChange)
	b = append(b, `,"last_changed_by":`...)
	b = appendJSONString(b, t.LastChangedBy, true)
	if t.ActiveDuration != nil {
		b = append(b, `,"active_duration":`...)
		b = strconv.AppendInt(b, *t.ActiveDuration, 10)
	}
	if t.MLflow != nil {
		b = append(b, `,"mlflow":`...)
		if b, err = appendMLflowRun(b, t.MLflow); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// appendTime appends a time as jsonx.Time encodes it.
func appendTime(b []byte, t jsonx.Time) []byte {
	if t.IsZero() {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = append(b, t.Format()...)
	return append(b, '"')
}

// lastMetricsSizeHint is about the encoded size of a task's last_metrics.
func lastMetricsSizeHint(lm map[string]map[string]*MetricSummary) int {
	n := 2
	for _, vs := range lm {
		n += 320 * len(vs)
	}
	return n
}

// appendLastMetrics writes last_metrics as json.Marshal does (keys in
// byte order, the order given; strings HTML-escaped; nil maps and entries
// as null).
func appendLastMetrics(b []byte, lm map[string]map[string]*MetricSummary, order lmOrder) []byte {
	if lm == nil {
		return append(b, "null"...)
	}
	b = append(b, '{')
	for i, m := range order {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, m.key, true)
		b = append(b, ':')
		vs := lm[m.key]
		if vs == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, '{')
		for j, v := range m.variants {
			if j > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, v.key, true)
			b = append(b, ':')
			if s := vs[v.key]; s != nil {
				b = s.appendJSON(b, true)
			} else {
				b = append(b, "null"...)
			}
		}
		b = append(b, '}')
	}
	return append(b, '}')
}
