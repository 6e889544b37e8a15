// Package events holds the rules of the events service without HTTP:
// parsing and validating reported events, the ingest transaction, the
// metrics summary kept on tasks and models, histogram planning over the
// stored rollups, and the signed scroll tokens of the reads.
package events

import (
	"crypto/md5"
	"encoding/hex"
	"math"
)

// Type is an event type as the API names it.
type Type string

// The event types.
const (
	Scalar Type = "training_stats_scalar"
	Vector Type = "training_stats_vector"
	Image  Type = "training_debug_image"
	Plot   Type = "plot"
	Log    Type = "log"
)

// Types lists every event type, in the order reads merge them.
var Types = []Type{Scalar, Vector, Image, Plot, Log}

// ValidType reports whether t names an event type.
func ValidType(t string) bool {
	for _, x := range Types {
		if string(x) == t {
			return true
		}
	}
	return false
}

const (
	// NoIter is the stored iteration of an event sent without one; it
	// sorts before every real iteration and is never shown.
	NoIter int64 = math.MinInt64
	// SingleValueIter marks single-value scalars (report_single_value).
	SingleValueIter int64 = -1 << 31
)

// Limits on single fields; longer values are refused per event.
const (
	// MaxPlotLen bounds plot_str (the SDK splits requests at 15 MiB, so
	// every plot it can send fits).
	MaxPlotLen = 16 << 20
	// MaxMsgLen bounds a log message.
	MaxMsgLen = 16 << 20
	// MaxNameLen bounds metric, variant, key, url, worker and level.
	MaxNameLen = 8 << 10
)

// Event is one validated reported event.
type Event struct {
	Type Type
	// Task is the task id, or the model id of a model event.
	Task        string
	ModelEvent  bool
	AllowLocked bool
	// Iter is NoIter when the event has no iteration.
	Iter            int64
	Metric, Variant string
	// Timestamp is the event time in epoch ms (the write time when the
	// event has none: HasTimestamp false).
	Timestamp    int64
	HasTimestamp bool
	Worker       string
	// Value is the scalar value.
	Value float64
	// Vector is the raw JSON array of a vector event.
	Vector []byte
	// Plot fields.
	PlotStr *string
	// Debug image fields.
	URL, Key *string
	// Log fields.
	Level, Msg *string
	// XAxisLabel feeds the task's last-metrics; it is not stored.
	XAxisLabel *string
	// Extra holds members Trove does not interpret, as sent.
	Extra []Member
}

// Member is one raw JSON object member.
type Member struct {
	Key   string
	Value []byte
}

// HasIter reports whether the event came with an iteration.
func (e *Event) HasIter() bool { return e.Iter != NoIter }

// KeyText is the event's key, "" when absent.
func (e *Event) KeyText() string {
	if e.Key == nil {
		return ""
	}
	return *e.Key
}

// Hash is the reference's field-name hash: md5 hex of the name. last_metrics
// and metric_stats are keyed by it.
func Hash(name string) string {
	sum := md5.Sum([]byte(name))
	return hex.EncodeToString(sum[:])
}
