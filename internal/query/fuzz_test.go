package query_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// fuzzRequest is a get_all request as a handler decodes it.
type fuzzRequest struct {
	query.Request
	Status query.StringList `json:"status"`
}

// fuzzSeeds cover the list-query findings of issue 12: lists past the
// bind-variable limit, deep tag filters, long search text, costly and
// long patterns, odd paging, ordering, dates and numbers.
func fuzzSeeds() []string {
	many := func(n int, item string) string {
		return strings.TrimSuffix(strings.Repeat(item+",", n), ",")
	}
	return []string{
		`{}`,
		`{"id": [` + many(32766, `"t1"`) + `]}`,
		`{"tags": [` + many(999, `"a"`) + `]}`,
		`{"tags": [` + many(limits.FilterValues, `"__$not"`) + `]}`,
		`{"search_text": "` + strings.Repeat("%_", 25000) + `"}`,
		`{"search_text": "` + many(100, "w") + `"}`,
		`{"name": "` + strings.Repeat("(a*)*", 3000) + `b"}`,
		`{"name": "(x+x+)+y"}`, `{"name": "(?i)ALPHA"}`, `{"name": "\\p{Greek}+"}`, `{"name": "a{1000}"}`,
		`{"name": "(?P<n>a)\\k<n>"}`, `{"comment": "(?=x)"}`, `{"name": "[[:alpha:]]"}`,
		`{"page": 0, "page_size": 100000000000}`, `{"page": -1, "page_size": -5}`, `{"page_size": 1.5}`,
		`{"page": 99999999, "page_size": 500}`, `{"page_size": "x"}`,
		`{"order_by": ["-created", "name", "hyperparams.Args.lr", "-last_iteration", "runtime.gpu"]}`,
		`{"order_by": ["-", "--name", "\u0000", "models.input.model"]}`,
		`{"only_fields": ["project.name", "hyperparams.Args", "id", "..", "a.b.c"]}`,
		`{"created": [">=2024-01-01", "<253402300800000"]}`,
		`{"created": ["-62135596801000", "1e308"]}`, `{"last_update": [">1e308"]}`, `{"last_update": ["<=-1e18"]}`,
		`{"last_iteration": [1e308, null]}`, `{"last_iteration": ["123456789012345678901234567890", "x"]}`,
		`{"hyperparams.Args.lr": [">0.01", "<1e400"]}`, `{"hyperparams.Args.batch": ["NaN"]}`,
		`{"runtime.gpu": "yes"}`, `{"execution.parameters.lr": "0.1"}`,
		`{"models.input.model": ["__$all", "m1", "__$not", "m2"]}`,
		`{"_any_": {"fields": ["name", "comment"], "pattern": "tr"}}`,
		`{"_all_": {"fields": ["created"], "datetime": ">2023-01-01"}}`,
		`{"_and_": {"fields": [` + many(200, `"name"`) + `], "pattern": "x"}}`,
		`{"filters": {"tags": {"any": {"include": ["a"], "exclude": ["b"]}, "all": {"exclude": ["c"]}}}}`,
		`{"filters": {"status": {"any": {"include": [` + many(500, `"created"`) + `]}}}}`,
		`{"size": 2, "scroll_id": "nope"}`, `{"size": 0}`, `{"size": -3, "refresh_scroll": true}`,
		`{"status": ["created", "-queued", "__$nop"]}`, `{"type": "TESTING"}`, `{"project": [null, "p1"]}`,
		`{"search_hidden": true, "allow_public": false, "id": "t3"}`,
	}
}

// FuzzListQuery builds list queries from arbitrary bodies and runs them
// against a real store on every backend: no panic, and every error is an
// API error below 500, never a raw database error.
func FuzzListQuery(f *testing.F) {
	for i, s := range fuzzSeeds() {
		kv := fuzzFields[i%len(fuzzFields)]
		f.Add([]byte(s), kv[0], kv[1])
	}
	dbs := map[string]*store.DB{}
	for _, b := range storetest.Backends() {
		dbs[b] = open(f, b)
	}
	f.Fuzz(func(t *testing.T, body []byte, key, value string) {
		// Most mutations of a whole body are not JSON: the one-field body
		// keeps the fuzzer inside the builder.
		for _, b := range [][]byte{body, oneField(key, value)} {
			for backend, db := range dbs {
				if err := listBody(db, b); err != nil {
					checkListError(t, backend, b, err)
				}
			}
		}
	})
}

// fuzzFields are field and value pairs for the one-field bodies.
var fuzzFields = [][2]string{
	{"name", "tr(ai)?n"}, {"tags", `["__$any", "a", "-b"]`}, {"created", `[">2023-01-01", null]`},
	{"last_update", `">=1700000000"`}, {"hyperparams.Args.lr", `[">0.01"]`}, {"order_by", `["-name"]`},
	{"search_text", "alpha %_"}, {"page_size", "3"}, {"only_fields", `["project.name"]`},
	{"comment", "(?i)FIRST"}, {"_any_", `{"fields": ["name"], "pattern": "^a"}`}, {"models.input.model", `"m1"`},
}

// oneField is {key: value}, value taken as JSON when it is JSON and as a
// string otherwise.
func oneField(key, value string) []byte {
	v := json.RawMessage(value)
	if !json.Valid(v) {
		v, _ = json.Marshal(value)
	}
	b, _ := json.Marshal(map[string]json.RawMessage{key: v})
	return b
}

// listBody runs body the way a get_all handler does: decoded with its
// limits, built, limited to company c1 and run under a deadline.
func listBody(db *store.DB, body []byte) error {
	var req fuzzRequest
	if err := rpc.Decode(body, &req); err != nil {
		return err
	}
	plan, err := query.Build(db.D, schema, &req.Request, body, query.Options{Ex: len(body)%2 == 0})
	if err != nil {
		return err
	}
	plan.WhereIn("company", []string{"c1", ""})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = plan.Run(ctx, db, "tasks", "c1", refs)
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("the query ran for over 20 s")
	}
	return err
}

// checkListError is the server's error mapping: an API error, or a
// pattern stopped by the store's matching budget.
func checkListError(t *testing.T, backend string, body []byte, err error) {
	t.Helper()
	var ae *apierr.Error
	if !errors.As(err, &ae) {
		ae = limits.PatternTooCostly(err)
	}
	if ae == nil {
		t.Fatalf("%s: %.300q: not an API error: %v", backend, body, err)
	}
	if ae.Code >= 500 {
		t.Fatalf("%s: %.300q: %d/%d %s", backend, body, ae.Code, ae.Subcode, ae.Message())
	}
}
