package query_test

import (
	"fmt"
	"testing"

	"github.com/trove-ml/trove/internal/store"
)

// iso is the API spelling of fixture day i.
func iso(i int) string { return day(i).Format() }

func all() []string { return []string{"t1", "t2", "t3", "t4"} }

func TestPatterns(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		runCases(t, db, []listCase{
			{name: "name regex", body: `{"name": "train"}`, want: []string{"t1", "t2"}},
			{name: "anchored", body: `{"name": "^gam"}`, want: []string{"t3"}},
			{name: "case-sensitive", body: `{"name": "TRAIN"}`, want: []string{}},
			{name: "empty name ignored", body: `{"name": ""}`, want: all()},
			{name: "document field", body: `{"comment": "run$"}`, want: []string{"t1"}},
			{name: "document field case", body: `{"comment": "final"}`, want: []string{}},
			{name: "bad regex", body: `{"name": "("}`, errCode: 21},
			{name: "bad regex in a field", body: `{"comment": "[a"}`, errCode: 21},
			{name: "ids", body: `{"id": ["t2", "t4"]}`, want: []string{"t2", "t4"}},
			{name: "one id", body: `{"id": "t3"}`, want: []string{"t3"}},
			{name: "search text", body: `{"search_text": "eval"}`, want: []string{"t3"}},
			{name: "search text any word, any case", body: `{"search_text": "ALPHA second"}`, want: []string{"t1", "t2"}},
			{name: "search text literal %", body: `{"search_text": "%"}`, want: []string{}},
		})
	})
}

func TestListOperators(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		runCases(t, db, []listCase{
			{name: "one value", body: `{"tags": ["a"]}`, want: []string{"t1"}},
			{name: "a string", body: `{"tags": "c"}`, want: []string{"t3"}},
			{name: "values are or-ed", body: `{"tags": ["a", "c"]}`, want: []string{"t1", "t3"}},
			{name: "-x excludes", body: `{"tags": ["-b"]}`, want: []string{"t3", "t4"}},
			{name: "-x with a value", body: `{"tags": ["b", "-a"]}`, want: []string{"t2"}},
			{name: "__$all", body: `{"tags": ["__$all", "a", "b"]}`, want: []string{"t1"}},
			{name: "__$all none", body: `{"tags": ["__$all", "b", "c"]}`, want: []string{}},
			{name: "__$any", body: `{"tags": ["__$any", "a", "c"]}`, want: []string{"t1", "t3"}},
			{name: "__$not", body: `{"tags": ["__$not", "b"]}`, want: []string{"t3", "t4"}},
			{name: "__$all then __$not", body: `{"tags": ["__$all", "b", "__$not", "a"]}`, want: []string{"t2"}},
			{name: "-x is a value after an operator", body: `{"tags": ["__$any", "-b"]}`, want: []string{}},
			{name: "__$nop restores -x", body: `{"tags": ["__$all", "b", "__$nop", "-a"]}`, want: []string{"t2"}},
			{name: "the first operator joins the groups", body: `{"tags": ["__$any", "c", "__$not", "c"]}`, want: all()},
			{name: "null is empty", body: `{"tags": [null]}`, want: []string{"t4"}},
			{name: "a null list asks nothing", body: `{"tags": null, "user": null, "project": null, "status": null}`, want: all()},
			{name: "system tags exclusion", body: `{"system_tags": ["-archived"]}`, want: []string{"t1", "t2", "t4"}},
			{name: "scalar column", body: `{"status": ["created", "completed"]}`, want: []string{"t1", "t3"}},
			{name: "case-insensitive field", body: `{"type": ["TESTING"]}`, want: []string{"t2", "t3"}},
			{name: "null column", body: `{"project": [null]}`, want: []string{"t4"}},
			{name: "column value", body: `{"project": ["p2"]}`, want: []string{"t3"}},
			{name: "object array", body: `{"models.input.model": ["m2"]}`, want: []string{"t2"}},
			{name: "object array exclusion", body: `{"models.input.model": ["m1", "-m2"]}`, want: []string{"t1"}},
			{name: "object array empty", body: `{"models.input.model": [null]}`, want: []string{"t3", "t4"}},
			{name: "map prefix", body: `{"hyperparams.Args.lr": ["0.1"]}`, want: []string{"t1"}},
			{name: "alias", body: `{"execution.parameters.lr": ["0.01"]}`, want: []string{"t2"}},
			{name: "two fields are and-ed", body: `{"tags": ["b"], "status": ["queued"]}`, want: []string{"t2"}},
			{name: "unknown operator", body: `{"tags": ["__$xyz", "a"]}`, errCode: 16},
			{name: "not a list of strings", body: `{"tags": [{"a": 1}]}`, errCode: 12},
		})
	})
}

func TestFilters(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		runCases(t, db, []listCase{
			{name: "all include and exclude", body: `{"filters": {"tags": {"all": {"include": ["b"], "exclude": ["a"]}}}}`, want: []string{"t2"}},
			{name: "any include", body: `{"filters": {"tags": {"any": {"include": ["a", "c"]}}}}`, want: []string{"t1", "t3"}},
			{name: "op or", body: `{"filters": {"tags": {"any": {"include": ["c"]}, "all": {"include": ["a", "b"]}, "op": "or"}}}`, want: []string{"t1", "t3"}},
			{name: "null include", body: `{"filters": {"tags": {"any": {"include": [null]}}}}`, want: []string{"t4"}},
			{name: "replaces the plain parameter", body: `{"tags": ["a"], "filters": {"tags": {"any": {"include": ["c"]}}}}`, want: []string{"t3"}},
			{name: "not a list field", body: `{"filters": {"name": {"any": {"include": ["x"]}}}}`, errCode: 12},
			{name: "bad op", body: `{"filters": {"tags": {"op": "xor"}}}`, errCode: 12},
			{name: "unknown member", body: `{"filters": {"tags": {"none": {}}}}`, errCode: 12},
		})
	})
}

func TestMultiFieldPatterns(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		runCases(t, db, []listCase{
			{name: "_any_ pattern", body: `{"_any_": {"pattern": "^alpha|eval", "fields": ["name", "comment"]}}`, want: []string{"t1", "t3"}},
			{name: "_any_ ignores case", body: `{"_any_": {"pattern": "FINAL", "fields": ["comment"]}}`, want: []string{"t3"}},
			{name: "_all_ pattern", body: `{"_all_": {"pattern": "r", "fields": ["name", "comment"]}}`, want: []string{"t1"}},
			{name: "any without underscores", body: `{"any": {"pattern": "delta", "fields": ["name"]}}`, want: []string{"t4"}},
			{name: "_any_ datetime", body: fmt.Sprintf(`{"_any_": {"datetime": ">=%s", "fields": ["created", "last_update"]}}`, iso(3)), want: []string{"t3", "t4"}},
			{name: "datetime skips other fields", body: fmt.Sprintf(`{"_all_": {"datetime": "<%s", "fields": ["name", "created"]}}`, iso(2)), want: []string{"t1"}},
			{name: "pattern and datetime", body: `{"_all_": {"pattern": "a", "datetime": ">2020-01-01", "fields": ["name"]}}`, errCode: 12},
			{name: "neither", body: `{"_all_": {"fields": ["name"]}}`, errCode: 12},
			{name: "bad regex", body: `{"_any_": {"pattern": "(", "fields": ["name"]}}`, errCode: 21},
		})
	})
}

func TestRangesAndDates(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		epoch4 := day(4).Millis() / 1000
		runCases(t, db, []listCase{
			{name: "document number range", body: `{"last_iteration": [20, 100]}`, want: []string{"t2", "t3"}},
			{name: "open minimum", body: `{"last_iteration": [null, 10]}`, want: []string{"t1", "t4"}},
			{name: "open maximum", body: `{"last_iteration": [50, null]}`, want: []string{"t2", "t3"}},
			{name: "not a pair", body: `{"last_iteration": [1]}`, errCode: 12},
			{name: "date range on a time column", body: fmt.Sprintf(`{"created": ["%s", "%s"]}`, iso(2), iso(3)), want: []string{"t2", "t3"}},
			{name: "date after", body: fmt.Sprintf(`{"last_update": ">=%s"}`, iso(3)), want: []string{"t3", "t4"}},
			{name: "date before", body: fmt.Sprintf(`{"last_update": "<%s"}`, iso(2)), want: []string{"t1"}},
			{name: "two bounds", body: fmt.Sprintf(`{"last_update": ["<=%s", ">%s"]}`, iso(3), iso(1)), want: []string{"t2", "t3"}},
			{name: "from and to", body: fmt.Sprintf(`{"last_update": ["%s", "%s"]}`, iso(1), iso(2)), want: []string{"t1", "t2"}},
			{name: "epoch seconds", body: fmt.Sprintf(`{"last_update": ">=%d"}`, epoch4), want: []string{"t4"}},
			{name: "unparsable date dropped", body: `{"last_update": ">soon"}`, want: all()},
			{name: "equality prefix", body: `{"runtime.gpu": "yes"}`, want: []string{"t1"}},
			{name: "equality null ignored", body: `{"runtime.gpu": null}`, want: all()},
			{name: "null range and date ignored", body: `{"last_iteration": null, "last_update": null, "created": null}`, want: all()},
		})
	})
}
