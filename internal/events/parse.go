package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/limits"
)

// Error descriptions counted in errors_info. The first ones are the
// reference server's texts.
const (
	errNoType       = "Event must have a 'type' field"
	errNoTask       = "Event must have a 'task' field"
	errModelLog     = "Task log events are not supported for models"
	errIterRange    = "Iteration number should not exceed 9223372036854775807"
	errMalformed    = "Malformed JSON line"
	errNoValue      = "Scalar event must have a numeric 'value' field"
	errNonFinite    = "Event value must be a finite number (NaN and Infinity are not accepted)"
	errVectorValues = "Vector event must have a 'values' list of numbers"
)

func errInvalidType(t string) string { return "Invalid event type " + t }

func errField(field, want string) string {
	return fmt.Sprintf("Invalid field '%s' (expected %s)", field, want)
}

func errTooLong(field string) string { return fmt.Sprintf("Field '%s' is too long", field) }

// dropped are members the server computes or that clients add without
// meaning (SDK 2.x adds "method" to every line); they are not stored.
var dropped = map[string]bool{
	"method": true, "@timestamp": true, "plot_len": true, "source_urls": true,
	"valid_plot": true, "plot_data": true, "skip_validation": true,
}

// errTooManyMembers stops the scan of a line with more than
// limits.EventKeys members.
var errTooManyMembers = errors.New("too many members")

// rawEvent collects the members of a line before they are validated.
type rawEvent struct {
	p                                                      *Parser
	typ, task, model, timestamp, ts, iter, metric, variant []byte
	value, values, worker, level, msg, plotStr, url, key   []byte
	modelEvent, allowLocked, xAxisLabel                    []byte
	extra                                                  []Member
	// extraAt indexes extra by key once it grows, so that a line with many
	// unknown members parses in linear time.
	extraAt map[string]int
	// members counts the members of the line (limits.EventKeys).
	members int
}

// extraIndexFrom is the count of unknown members from which they are
// looked up through extraAt instead of a scan.
const extraIndexFrom = 16

// Parse validates one event line. defaultWorker is used when the event
// names none. A refused event gives a description for errors_info.
func Parse(line []byte, defaultWorker string) (*Event, string) {
	return NewParser(defaultWorker).Parse(line)
}

// Parser parses the lines of one batch; it shares the names the lines
// repeat (task, type, metric, variant, worker) instead of allocating
// them per event.
type Parser struct {
	defaultWorker string
	names         map[string]string
	// slab holds the events of the next lines: one allocation for many
	// events instead of one each.
	slab     []Event
	slabSize int
	// last holds each slot's last unescaped value.
	last [nameSlots]string
}

// maxSlab is the most events a Parser allocates at once; a parser of one
// line allocates one.
const maxSlab = 64

// newEvent returns a zeroed event from the parser's slab.
func (p *Parser) newEvent() *Event {
	if len(p.slab) == 0 {
		p.slabSize = min(maxSlab, max(1, 2*p.slabSize))
		p.slab = make([]Event, p.slabSize)
	}
	e := &p.slab[0]
	p.slab = p.slab[1:]
	return e
}

// NewParser makes a parser for one batch.
func NewParser(defaultWorker string) *Parser {
	return &Parser{defaultWorker: defaultWorker, names: map[string]string{}}
}

// Parse validates one event line (see the package function Parse).
func (p *Parser) Parse(line []byte) (*Event, string) {
	r := rawEvent{p: p}
	err := jsonx.WalkObject(line, func(key []byte, escaped bool, val []byte) error {
		if escaped {
			var s string
			if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
				return jsonx.ErrSyntax
			}
			key = []byte(s)
		}
		if r.members++; r.members > limits.EventKeys {
			return errTooManyMembers
		}
		r.set(key, val)
		return nil
	})
	if errors.Is(err, errTooManyMembers) {
		return nil, fmt.Sprintf("Too many fields in event (more than %d)", limits.EventKeys)
	}
	if err != nil {
		return nil, errMalformed
	}
	return r.validate(p.defaultWorker)
}

// Name slots: the members whose last value a Parser remembers, since
// consecutive lines of a batch mostly repeat them.
const (
	slotType = iota
	slotTask
	slotMetric
	slotVariant
	slotWorker
	nameSlots
)

// name decodes a short string member, shared across the batch. slot is
// the member's (see slotType); a value equal to the slot's previous one
// is answered without hashing.
func (p *Parser) name(slot int, v []byte) (string, bool) {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		// the last value was unescaped, so equal bytes are unescaped too
		if last := p.last[slot]; last != "" && string(v[1:len(v)-1]) == last {
			return last, true
		}
	}
	if len(v) >= 2 && v[0] == '"' && !jsonx.HasEscape(v) && len(v) <= 256 {
		inner := v[1 : len(v)-1]
		s, ok := p.names[string(inner)]
		if !ok {
			if s, ok = str(v); ok && len(p.names) < 4096 {
				p.names[s] = s
			}
		}
		if ok {
			p.last[slot] = s
		}
		return s, ok
	}
	return str(v)
}

// set keeps a member's value. The key is copied only for a member kept
// in extra: the known names are matched on the line's bytes.
func (r *rawEvent) set(key []byte, v []byte) {
	switch string(key) {
	case "type":
		r.typ = v
	case "task":
		r.task = v
	case "model":
		r.model = v
	case "timestamp":
		r.timestamp = v
	case "ts":
		r.ts = v
	case "iter":
		r.iter = v
	case "metric":
		r.metric = v
	case "variant":
		r.variant = v
	case "value":
		r.value = v
	case "values":
		r.values = v
	case "worker":
		r.worker = v
	case "level":
		r.level = v
	case "msg":
		r.msg = v
	case "plot_str":
		r.plotStr = v
	case "url":
		r.url = v
	case "key":
		r.key = v
	case "model_event":
		r.modelEvent = v
	case "allow_locked":
		r.allowLocked = v
	case "x_axis_label":
		r.xAxisLabel = v
	default:
		if dropped[string(key)] {
			return
		}
		k := string(key)
		// A repeated member: the last one wins, as in JSON decoders.
		if r.extraAt != nil {
			if i, ok := r.extraAt[k]; ok {
				r.extra[i].Value = v
				return
			}
			r.extraAt[k] = len(r.extra)
			r.extra = append(r.extra, Member{Key: k, Value: v})
			return
		}
		for i, m := range r.extra {
			if m.Key == k {
				r.extra[i].Value = v
				return
			}
		}
		r.extra = append(r.extra, Member{Key: k, Value: v})
		if len(r.extra) == extraIndexFrom {
			r.extraAt = make(map[string]int, 2*extraIndexFrom)
			for i, m := range r.extra {
				r.extraAt[m.Key] = i
			}
		}
	}
}

func isNull(v []byte) bool { return v == nil || string(v) == "null" }

func (r *rawEvent) validate(defaultWorker string) (*Event, string) {
	if isNull(r.typ) {
		return nil, errNoType
	}
	e := r.p.newEvent()
	e.Iter, e.Extra = NoIter, r.extra
	typ, ok := r.p.name(slotType, r.typ)
	if !ok {
		return nil, errField("type", "a string")
	}
	typ = strings.ReplaceAll(typ, " ", "_")
	if !ValidType(typ) {
		return nil, errInvalidType(typ)
	}
	e.Type = Type(typ)
	var bad string
	if e.ModelEvent, bad = boolField("model_event", r.modelEvent); bad != "" {
		return nil, bad
	}
	if e.AllowLocked, bad = boolField("allow_locked", r.allowLocked); bad != "" {
		return nil, bad
	}
	if e.ModelEvent && e.Type == Log {
		return nil, errModelLog
	}
	id := r.task
	if e.ModelEvent && !isNull(r.model) {
		id = r.model
	} else if !isNull(r.model) {
		r.extra = append(r.extra, Member{Key: "model", Value: r.model})
		e.Extra = r.extra
	}
	if isNull(id) {
		return nil, errNoTask
	}
	if e.Task, ok = r.p.name(slotTask, id); !ok || e.Task == "" {
		return nil, errNoTask
	}
	if bad = r.times(e); bad != "" {
		return nil, bad
	}
	if bad = r.names(e, defaultWorker); bad != "" {
		return nil, bad
	}
	return e, r.payload(e)
}

// times validates timestamp and iter.
func (r *rawEvent) times(e *Event) string {
	ts := r.timestamp
	if isNull(ts) {
		ts = r.ts
	}
	if !isNull(ts) {
		v, ok := timestampValue(ts)
		if !ok {
			return errField("timestamp", "epoch milliseconds")
		}
		e.Timestamp, e.HasTimestamp = v, true
	}
	if !isNull(r.iter) {
		it, status := intValue(r.iter)
		switch status {
		case numBad:
			return errField("iter", "an integer")
		case numRange:
			return errIterRange
		}
		e.Iter = it
	}
	return ""
}

// names validates the text fields shared by every type.
func (r *rawEvent) names(e *Event, defaultWorker string) string {
	var bad string
	if e.Metric, bad = r.nameField("metric", slotMetric, r.metric); bad != "" {
		return bad
	}
	if e.Variant, bad = r.nameField("variant", slotVariant, r.variant); bad != "" {
		return bad
	}
	if e.Worker, bad = r.nameField("worker", slotWorker, r.worker); bad != "" {
		return bad
	}
	if e.Worker == "" {
		e.Worker = defaultWorker
	}
	if !isNull(r.xAxisLabel) {
		s, bad := textField("x_axis_label", r.xAxisLabel, MaxNameLen)
		if bad != "" {
			return bad
		}
		e.XAxisLabel = &s
	}
	if !isNull(r.key) {
		s, bad := textField("key", r.key, MaxNameLen)
		if bad != "" {
			return bad
		}
		e.Key = &s
	}
	return ""
}

// payload validates the fields of the event's type; fields of other types
// are kept as sent.
func (r *rawEvent) payload(e *Event) string {
	keep := func(k string, v []byte) {
		if v != nil {
			e.Extra = append(e.Extra, Member{Key: k, Value: v})
		}
	}
	switch e.Type {
	case Scalar:
		if isNull(r.value) {
			return errNoValue
		}
		v, bad := floatValue(r.value)
		if bad != "" {
			return bad
		}
		e.Value = v
		keep("values", r.values)
	case Vector:
		arr := r.values
		if isNull(arr) {
			arr = r.value
		} else {
			keep("value", r.value)
		}
		if isNull(arr) || arr[0] != '[' {
			return errVectorValues
		}
		if bytes.Contains(arr, sentinelPrefix[1:]) {
			return errNonFinite
		}
		e.Vector = arr
	default:
		keep("value", r.value)
		keep("values", r.values)
	}
	switch e.Type {
	case Plot:
		if !isNull(r.plotStr) {
			s, b := textField("plot_str", r.plotStr, MaxPlotLen)
			if b != "" {
				return b
			}
			e.PlotStr = &s
		}
	case Image:
		if !isNull(r.url) {
			s, b := textField("url", r.url, MaxNameLen)
			if b != "" {
				return b
			}
			e.URL = &s
		}
	case Log:
		if !isNull(r.level) {
			s, b := textField("level", r.level, MaxNameLen)
			if b != "" {
				return b
			}
			e.Level = &s
		}
		if !isNull(r.msg) {
			s, b := textField("msg", r.msg, MaxMsgLen)
			if b != "" {
				return b
			}
			e.Msg = &s
		}
	}
	if e.Type != Plot {
		keep("plot_str", r.plotStr)
	}
	if e.Type != Image {
		keep("url", r.url)
	}
	if e.Type != Log {
		keep("level", r.level)
		keep("msg", r.msg)
	}
	return ""
}

// sentinelPrefix starts the strings that stand for NaN and Infinity
// tokens (see jsonx.Sanitize).
var sentinelPrefix = []byte(`"\u0000trove:`)

// str decodes a JSON string value.
func str(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	return decodeString(v, jsonx.HasEscape(v))
}

// nameField decodes an optional short string member shared across the
// batch ("" when null or absent).
func (r *rawEvent) nameField(field string, slot int, v []byte) (string, string) {
	if isNull(v) {
		return "", ""
	}
	s, ok := r.p.name(slot, v)
	if !ok || bytes.HasPrefix(v, sentinelPrefix) {
		return "", errField(field, "a string")
	}
	if len(s) > MaxNameLen {
		return "", errTooLong(field)
	}
	return s, ""
}

// textField decodes an optional string member ("" when null or absent).
func textField(field string, v []byte, maxLen int) (string, string) {
	if isNull(v) {
		return "", ""
	}
	s, ok := str(v)
	if !ok || bytes.HasPrefix(v, sentinelPrefix) {
		return "", errField(field, "a string")
	}
	if len(s) > maxLen {
		return "", errTooLong(field)
	}
	return s, ""
}

func boolField(field string, v []byte) (bool, string) {
	switch string(v) {
	case "", "null", "false":
		return false, ""
	case "true":
		return true, ""
	}
	return false, errField(field, "a boolean")
}

type numStatus int

const (
	numOK numStatus = iota
	numBad
	numRange
)

// numberText returns the text of a JSON number, or of a string holding
// one. For a plain number the text shares v's memory (no copy): it must
// not outlive the parse (strconv copies what it keeps in its errors).
func numberText(v []byte) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	if v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return "", false
		}
		return strings.TrimSpace(s), true
	}
	if v[0] == '-' || (v[0] >= '0' && v[0] <= '9') {
		return unsafe.String(&v[0], len(v)), true
	}
	return "", false
}

// intValue reads an iteration: an integer, a number (truncated, as the
// reference casts with int()) or a numeric string.
func intValue(v []byte) (int64, numStatus) {
	s, ok := numberText(v)
	if !ok || jsonx.IsSentinel(s) {
		return 0, numBad
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, numOK
	} else if ne, isNum := err.(*strconv.NumError); isNum && ne.Err == strconv.ErrRange {
		return 0, numRange
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) {
		return 0, numBad
	}
	f = math.Trunc(f)
	if f >= 9223372036854775807 || f < -9223372036854775808 {
		return 0, numRange
	}
	return int64(f), numOK
}

// floatValue reads a finite scalar value.
func floatValue(v []byte) (float64, string) {
	s, ok := numberText(v)
	if !ok {
		return 0, errNoValue
	}
	if jsonx.IsSentinel(s) {
		return 0, errNonFinite
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, errNoValue
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errNonFinite
	}
	return f, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// timestampValue reads epoch milliseconds from a number, a numeric string
// or an ISO-8601 date.
func timestampValue(v []byte) (int64, bool) {
	if s, ok := numberText(v); ok && !jsonx.IsSentinel(s) {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n, true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) && math.Abs(f) < 9e18 {
			return int64(f), true
		}
		if v[0] != '"' {
			return 0, false
		}
		if t, ok := jsonx.ParseTime(s); ok {
			return t.Millis(), true
		}
	}
	return 0, false
}
