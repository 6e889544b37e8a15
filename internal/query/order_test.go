package query_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

func TestOrdering(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		runCases(t, db, []listCase{
			{name: "insertion order by default", body: `{}`, want: all()},
			{name: "document number descending", body: `{"order_by": ["-last_iteration"]}`, want: []string{"t3", "t2", "t1", "t4"}},
			{name: "column", body: `{"order_by": ["name"]}`, want: []string{"t1", "t2", "t4", "t3"}},
			{name: "two keys", body: `{"order_by": ["type", "-name"]}`, want: []string{"t3", "t2", "t4", "t1"}},
			{name: "numeric strings, missing last", body: `{"order_by": ["hyperparams.Args.batch"]}`, want: []string{"t3", "t1", "t2", "t4"}},
			{name: "descending, missing still last", body: `{"order_by": ["-hyperparams.Args.batch"]}`, want: []string{"t2", "t1", "t3", "t4"}},
			{name: "time column, never set last", body: `{"order_by": ["started"]}`, want: []string{"t3", "t2", "t1", "t4"}},
			{name: "time column descending, never set still last", body: `{"order_by": ["-started"]}`, want: []string{"t2", "t3", "t1", "t4"}},
			{name: "array column, empty last", body: `{"order_by": ["system_tags"]}`, want: []string{"t3", "t1", "t2", "t4"}},
			{name: "array column descending, empty still last", body: `{"order_by": ["-system_tags"]}`, want: []string{"t3", "t1", "t2", "t4"}},
			{name: "a string", body: `{"order_by": "-created"}`, want: []string{"t4", "t3", "t2", "t1"}},
			{name: "unknown field", body: `{"order_by": ["nope"]}`, errCode: 14},
			{name: "text score without search", body: `{"order_by": ["@text_score"]}`, errCode: 16},
		})
	})
}

func TestPaging(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		runCases(t, db, []listCase{
			{name: "first page", body: `{"page": 0, "page_size": 3}`, want: []string{"t1", "t2", "t3"}},
			{name: "second page", body: `{"page": 1, "page_size": 3}`, want: []string{"t4"}},
			{name: "past the end", body: `{"page": 2, "page_size": 3}`, want: []string{}},
			{name: "ordered pages", body: `{"page": 1, "page_size": 2, "order_by": ["-last_iteration"]}`, want: []string{"t1", "t4"}},
			{name: "page size below 1", body: `{"page_size": 0}`, errCode: 12},
			{name: "negative page", body: `{"page": -1, "page_size": 2}`, errCode: 12},
			{name: "page without size", body: `{"page": 1, "page_size": null}`, errCode: 11},
			{name: "page size not a number", body: `{"page_size": "x"}`, errCode: 12},
		})
	})
}
