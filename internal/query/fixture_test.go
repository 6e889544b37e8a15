package query_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

var ctx = context.Background()

// schema is a compact task schema: real columns, document fields, list,
// pattern, range, date, equality and numeric-order fields of each kind.
var schema = &query.Schema{
	Entity: "task",
	Columns: map[string]query.Column{
		"id": {Name: "id"}, "company": {Name: "company"}, "name": {Name: "name"}, "project": {Name: "project"},
		"type": {Name: "type"}, "status": {Name: "status"},
		"created":     {Name: "created", Kind: query.TimeMillis, NotNull: true},
		"last_update": {Name: "last_update", Kind: query.TimeMillis, NotNull: true},
		"started":     {Name: "started", Kind: query.TimeMillis},
		"tags":        {Name: "tags", Kind: query.JSONArray},
		"system_tags": {Name: "system_tags", Kind: query.JSONArray},
	},
	Fields: []string{"id", "company", "user", "name", "type", "status", "comment", "created", "last_update", "started", "project",
		"tags", "system_tags", "last_iteration", "hyperparams", "runtime", "models", "execution"},
	Patterns:         []string{"name", "comment"},
	Lists:            []string{"id", "tags", "system_tags", "type", "status", "project", "models.input.model"},
	ListPrefixes:     []string{"hyperparams."},
	ObjectArrays:     map[string][2]string{"models.input.model": {"models.input", "model"}},
	CaseInsensitive:  []string{"type"},
	Ranges:           []string{"created", "last_iteration"},
	Dates:            []string{"last_update"},
	EqualityPrefixes: []string{"runtime."},
	NumericPrefixes:  []string{"hyperparams."},
	SearchText:       []string{"name", "comment"},
	Hidden:           []string{"runtime"},
	Refs:             []string{"project"},
	Aliases:          map[string]string{"execution.parameters.": "hyperparams.Args."},
	DateTimeFields:   []string{"created", "last_update"},
}

var refs = query.RefTables{"project": "projects"}

const dayMs = 24 * 3600 * 1000

// day is the creation time of fixture task i (and its last_update).
func day(i int) jsonx.Time { return jsonx.FromMillis(1_700_000_000_000 + int64(i)*dayMs) }

// fixture is a handful of tasks of company c1 (inserted t1..t4, so the
// insertion order is the id order) and one of company c2.
func fixture() []*store.Task {
	hp := func(lr, batch string) map[string]map[string]*store.ParamItem {
		return map[string]map[string]*store.ParamItem{"Args": {
			"lr":    {Section: "Args", Name: "lr", Value: lr},
			"batch": {Section: "Args", Name: "batch", Value: batch},
		}}
	}
	in := func(models ...string) store.TaskModels {
		m := store.TaskModels{}
		for _, id := range models {
			m.Input = append(m.Input, &store.TaskModelItem{Name: "in", Model: id})
		}
		return m
	}
	str := func(s string) *string { return &s }
	ts := []*store.Task{
		{ID: "t1", Company: "c1", Name: "alpha train", Type: "training", Status: "created", Comment: str("first run"),
			Tags: []string{"a", "b"}, Hyperparams: hp("0.1", "32"), Project: "p1", LastIteration: 10,
			Models: in("m1"), Runtime: map[string]any{"gpu": "yes"}},
		{ID: "t2", Company: "c1", Name: "beta train", Type: "testing", Status: "queued", Comment: str("second"),
			Tags: []string{"b"}, Hyperparams: hp("0.01", "128"), Project: "p1", LastIteration: 50, Models: in("m1", "m2")},
		{ID: "t3", Company: "c1", Name: "gamma eval", Type: "testing", Status: "completed", Comment: str("Final"),
			Tags: []string{"c"}, SystemTags: []string{"archived"}, Hyperparams: hp("0.001", "8"), Project: "p2", LastIteration: 100},
		{ID: "t4", Company: "c1", Name: "delta", Type: "training", Status: "in_progress", LastIteration: 0},
		{ID: "x1", Company: "c2", Name: "alpha other", Type: "training", Status: "created", Tags: []string{"a"}},
	}
	// t3 started before t2; t1 and t4 never started.
	ts[1].Started, ts[2].Started = timePtr(day(9)), timePtr(day(8))
	for i, t := range ts {
		t.User = "u1"
		t.Created, t.LastUpdate, t.LastChange = day(i+1), day(i+1), day(i+1)
		t.Normalize()
	}
	return ts
}

func timePtr(t jsonx.Time) *jsonx.Time { return &t }

// open returns a store holding the fixture and its projects.
func open(t testing.TB, backend string) *store.DB {
	db := storetest.Open(t, backend)
	err := db.Tx(ctx, func(q store.Querier) error {
		for _, p := range []*store.Project{{ID: "p1", Name: "Project One"}, {ID: "p2", Name: "Project Two"}} {
			p.Company, p.Basename, p.User, p.Created, p.LastUpdate = "c1", p.Name, "u1", day(0), day(0)
			if err := db.Projects().Insert(ctx, q, p); err != nil {
				return err
			}
		}
		for _, tk := range fixture() {
			if err := db.Tasks().Insert(ctx, q, tk); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("load fixture: %v", err)
	}
	return db
}

// each runs fn on every backend with the fixture loaded.
func each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	for _, b := range storetest.Backends() {
		t.Run(b, func(t *testing.T) { fn(t, open(t, b)) })
	}
}

// list builds the plan of a request body, limited to company c1, and runs it.
func list(db *store.DB, body string, opts query.Options) (*query.Result, error) {
	var req query.Request
	if err := json.Unmarshal([]byte(body), &req); err != nil {
		return nil, fmt.Errorf("decode %s: %w", body, err)
	}
	plan, err := query.Build(db.D, schema, &req, []byte(body), opts)
	if err != nil {
		return nil, err
	}
	plan.Where("company = ?", "c1")
	return plan.Run(ctx, db, "tasks", "c1", refs)
}

func ids(res *query.Result) []string {
	out := []string{}
	for _, it := range res.Items {
		id, _ := it["id"].(string)
		out = append(out, id)
	}
	return out
}

// listCase is one request and the ids it must return, in order; a zero
// want with errCode set expects that API error instead.
type listCase struct {
	name    string
	body    string
	want    []string
	errCode int // apierr subcode
}

func runCases(t *testing.T, db *store.DB, cases []listCase) {
	t.Helper()
	for _, c := range cases {
		res, err := list(db, c.body, query.Options{})
		if c.errCode != 0 {
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Code != 400 || ae.Subcode != c.errCode {
				t.Errorf("%s: want API error 400/%d, got %v", c.name, c.errCode, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := ids(res); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}
