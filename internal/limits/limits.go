// Package limits holds the bounds every request is held to before the
// database sees it. The README's "Limits" table lists the same numbers;
// TestReadmeListsEveryLimit keeps the two in step.
package limits

import (
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
)

const (
	// ListItems bounds any list or map in a request body (ids of a _many
	// call, id filters, projections, ...): below the SQLite and
	// PostgreSQL bind-variable limits, so a list never reaches them.
	ListItems = 10000
	// FilterValues bounds the values of one list filter (tags, status,
	// type, ...) and the fields of one multi-field pattern: each value is
	// a condition, and SQLite refuses deep expression trees.
	FilterValues = 100
	// Pattern bounds a regular expression (name filters, patterns) in
	// bytes; PatternInsts bounds its compiled size.
	Pattern      = 1024
	PatternInsts = 10000
	// PatternTime bounds the time SQLite spends matching one pattern of a
	// query (PostgreSQL: the call's deadline).
	PatternTime = time.Second
	// ListQueryTime bounds the database work of one list query (a page of
	// get_all / get_all_ex, or its count): filters and orderings no index
	// serves read every record of the scope, seconds on a large store.
	// Past it the query is stopped and answered with a 400. It is above
	// PatternTime, so a costly pattern gets the answer that names it.
	ListQueryTime = 1500 * time.Millisecond
	// SearchText bounds free-text search in bytes, SearchWords in words
	// (each word is one condition per searched field).
	SearchText  = 1024
	SearchWords = 32
	// Name bounds names of tasks, projects, models, queues and the like.
	Name = 1024
	// Tag bounds one tag or system tag.
	Tag = 256
	// Message bounds status reasons and messages.
	Message = 4096
	// Comment bounds comments and descriptions.
	Comment = 65536
	// Lines bounds the lines of one JSON-lines body (events.add_batch).
	Lines = 100000
	// EventKeys bounds the members of one event line.
	EventKeys = 1000
	// LoginFailures is how many failed key/secret logins one access key,
	// and one source address, may make at once; LoginRefillPerSecond is
	// how fast that allowance comes back. Past it a login answers 429
	// before any bcrypt work.
	LoginFailures        = 10
	LoginRefillPerSecond = 1
)

// TooMany is the 400 for a list over its bound.
func TooMany(field string, n, limit int) *apierr.Error {
	return apierr.Validation(field, "too many items: %d, the limit is %d", n, limit)
}

// TooLong is the 400 for a string over its bound.
func TooLong(field string, n, limit int) *apierr.Error {
	return apierr.Validation(field, "too long: %d bytes, the limit is %d", n, limit)
}

// PatternBudgetMarker starts the database error of a query whose pattern
// ran past PatternTime; PatternTooCostly turns such an error into its 400.
const PatternBudgetMarker = "trove: pattern over its matching budget"

// PatternTooCostly maps a database error carrying PatternBudgetMarker to
// a 400 naming the field; other errors give nil.
func PatternTooCostly(err error) *apierr.Error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	i := strings.Index(msg, PatternBudgetMarker)
	if i < 0 {
		return nil
	}
	field := "name"
	if j := strings.Index(msg[i:], "field="); j >= 0 {
		field = strings.Fields(msg[i+j+len("field="):] + " ")[0]
		field = strings.TrimRight(field, ")\"'")
	}
	return apierr.Validation(field, "pattern too costly: matching it took over %s; use a simpler or more selective pattern", PatternTime)
}

// ListQueryTooCostly is the 400 of a list query stopped at ListQueryTime.
func ListQueryTooCostly() *apierr.Error {
	return apierr.ValidationMsg("query too costly: it ran over %s, reading records no index selects; "+
		"narrow it by project, status, id or parent, or ask for fewer records", ListQueryTime)
}
