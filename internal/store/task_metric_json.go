package store

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/trove-ml/trove/internal/jsonx"
)

// MarshalJSON writes a last_metrics entry byte for byte as encoding/json
// writes the struct from its tags, without reflection: a task carries one
// entry per metric/variant and every ingested batch re-encodes them all, so
// the reflective encoding (and its per-float Marshaler calls) was most of
// encoding a task (TestMetricSummaryJSONMatchesReflection holds the two
// equal).
func (m *MetricSummary) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	// encoding/json escapes a Marshaler's output itself when it escapes HTML
	return m.appendJSON(make([]byte, 0, 192+len(m.Metric)+len(m.Variant)), false), nil
}

// appendJSON appends the entry's encoding; html escapes <, > and & in its
// strings as encoding/json does in a whole document.
func (m *MetricSummary) appendJSON(b []byte, html bool) []byte {
	b = append(b, `{"metric":`...)
	b = appendJSONString(b, m.Metric, html)
	b = append(b, `,"variant":`...)
	b = appendJSONString(b, m.Variant, html)
	b = append(b, `,"value":`...)
	b = appendFloat(b, m.Value)
	b = append(b, `,"min_value":`...)
	b = appendFloat(b, m.MinValue)
	b = append(b, `,"min_value_iteration":`...)
	b = strconv.AppendInt(b, m.MinValueIteration, 10)
	b = append(b, `,"max_value":`...)
	b = appendFloat(b, m.MaxValue)
	b = append(b, `,"max_value_iteration":`...)
	b = strconv.AppendInt(b, m.MaxValueIteration, 10)
	if m.FirstValue != nil {
		b = append(b, `,"first_value":`...)
		b = appendFloat(b, *m.FirstValue)
	}
	if m.FirstValueIteration != nil {
		b = append(b, `,"first_value_iteration":`...)
		b = strconv.AppendInt(b, *m.FirstValueIteration, 10)
	}
	if m.MeanValue != nil {
		b = append(b, `,"mean_value":`...)
		b = appendFloat(b, *m.MeanValue)
	}
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, m.Count, 10)
	if m.XAxisLabel != nil {
		b = append(b, `,"x_axis_label":`...)
		b = appendJSONString(b, *m.XAxisLabel, html)
	}
	return append(b, '}')
}

// appendFloat appends a number as its Marshaler writes it (non-finite
// values as jsonx sentinels).
func appendFloat(b []byte, f jsonx.Float) []byte {
	if v := float64(f); !math.IsNaN(v) && !math.IsInf(v, 0) {
		return strconv.AppendFloat(b, v, 'g', -1, 64)
	}
	enc, _ := f.MarshalJSON() // never fails
	return append(b, enc...)
}

// appendJSONString appends s quoted as encoding/json quotes a string
// field: plain printable ASCII as it is, any other string through
// encoding/json itself. With html false, <, > and & are left as they are
// (encoding/json escapes a Marshaler's output itself when it escapes HTML).
func appendJSONString(b []byte, s string, html bool) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf || (html && (c == '<' || c == '>' || c == '&')) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(html)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
