package store

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The mlflow member of a task document, as json.Marshal writes it, with
// its metrics written without reflection: MLflow's log-batch rewrites the
// member with every batch, and a run reporting 50 keys spent most of its
// document encoding in encoding/json's map of latest values.

// mlflowRunHead and mlflowRunTail split MLflowRun's members around
// metrics, in their declared order (json.Marshal's).
type mlflowRunHead struct {
	Tags map[string]string `json:"tags,omitempty"`
}

type mlflowRunFields MLflowRun

type mlflowRunTail struct {
	Tags    *struct{} `json:"tags,omitempty"`
	Metrics *struct{} `json:"metrics,omitempty"`
	*mlflowRunFields
}

// appendMLflowRun appends run as json.Marshal writes it.
func appendMLflowRun(b []byte, run *MLflowRun) ([]byte, error) {
	if len(run.Metrics) == 0 {
		enc, err := json.Marshal(run)
		return append(b, enc...), err
	}
	head, err := json.Marshal(mlflowRunHead{Tags: run.Tags})
	if err != nil {
		return nil, err
	}
	tail, err := json.Marshal(mlflowRunTail{mlflowRunFields: (*mlflowRunFields)(run)})
	if err != nil {
		return nil, err
	}
	b = append(b, head[:len(head)-1]...) // "{" and the tags, if any
	if len(head) > 2 {
		b = append(b, ',')
	}
	b = append(b, `"metrics":`...)
	if b, err = appendLatestMetrics(b, run.Metrics); err != nil {
		return nil, err
	}
	if len(tail) > 2 {
		b = append(b, ',')
	}
	return append(b, tail[1:]...), nil
}

// appendLatestMetrics appends a map of latest values: keys in byte order,
// as encoding/json sorts them. A non-finite num is refused, as
// encoding/json refuses it.
func appendLatestMetrics(b []byte, ms map[string]*LatestMetric) ([]byte, error) {
	keys := make([]string, 0, len(ms))
	for k := range ms {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, strings.Compare)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k, true)
		b = append(b, ':')
		m := ms[k]
		if m == nil {
			b = append(b, "null"...)
			continue
		}
		b = append(b, `{"value":`...)
		b = appendJSONString(b, m.Value, true)
		if m.Num != nil {
			if math.IsNaN(*m.Num) || math.IsInf(*m.Num, 0) {
				return nil, &json.UnsupportedValueError{Str: strconv.FormatFloat(*m.Num, 'g', -1, 64)}
			}
			b = append(b, `,"num":`...)
			b = appendJSONFloat64(b, *m.Num)
		}
		b = append(b, `,"step":`...)
		b = strconv.AppendInt(b, m.Step, 10)
		b = append(b, `,"timestamp":`...)
		b = strconv.AppendInt(b, m.Timestamp, 10)
		b = append(b, '}')
	}
	return append(b, '}'), nil
}

// appendJSONFloat64 appends a finite float64 as encoding/json writes one:
// the shortest form, in exponent notation below 1e-6 and from 1e21 on,
// with a one-digit negative exponent unpadded (1e-7, not 1e-07).
func appendJSONFloat64(b []byte, f float64) []byte {
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
