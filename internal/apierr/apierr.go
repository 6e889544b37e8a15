// Package apierr holds the API error catalogue: every error a handler can
// return carries the reference server's (code, subcode) pair so clients that
// match on those numbers behave the same against Trove.
package apierr

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Error is an application error rendered into the response envelope.
type Error struct {
	Code    int
	Subcode int
	Msg     string
	// Data holds key/value details; it is appended to the message and
	// returned in batch failures.
	Data map[string]any
	// Cause is an optional wrapped error (not shown to clients).
	Cause error
	// Reply, when set, is sent as the envelope's data instead of {} (for
	// errors whose callers still read the answer's fields, such as
	// events.add_batch's `added`).
	Reply any
	// RetryAfter, when above zero, is sent as the Retry-After header (in
	// seconds): the SDK's HTTP retry waits that long instead of backing off.
	RetryAfter int
}

func (e *Error) Error() string { return e.Message() }

// Unwrap gives access to the wrapped cause.
func (e *Error) Unwrap() error { return e.Cause }

// Message renders the text as the reference does: base text, then
// ": k1=v1, k2=v2" with keys in sorted order.
func (e *Error) Message() string {
	if len(e.Data) == 0 {
		return e.Msg
	}
	keys := make([]string, 0, len(e.Data))
	for k := range e.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+formatValue(e.Data[k]))
	}
	return e.Msg + ": " + strings.Join(parts, ", ")
}

func formatValue(v any) string {
	switch x := v.(type) {
	case []string:
		return "(" + strings.Join(x, ", ") + ")"
	case []any:
		s := make([]string, len(x))
		for i, it := range x {
			s[i] = fmt.Sprint(it)
		}
		return "(" + strings.Join(s, ", ") + ")"
	default:
		return fmt.Sprint(v)
	}
}

// With returns a copy of e with extra data merged in.
func (e *Error) With(kv ...any) *Error {
	c := *e
	c.Data = make(map[string]any, len(e.Data)+len(kv)/2)
	for k, v := range e.Data {
		c.Data[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		c.Data[fmt.Sprint(kv[i])] = kv[i+1]
	}
	return &c
}

// New builds an error with a formatted message.
func New(code, subcode int, format string, args ...any) *Error {
	return &Error{Code: code, Subcode: subcode, Msg: fmt.Sprintf(format, args...)}
}

// As extracts an *Error from err, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Is reports whether err is an API error with the given code and subcode.
func Is(err error, code, subcode int) bool {
	e := As(err)
	return e != nil && e.Code == code && e.Subcode == subcode
}
