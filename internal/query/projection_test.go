package query_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"testing"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestProjection(t *testing.T) {
	each(t, func(t *testing.T, db *store.DB) {
		for _, c := range []struct {
			name string
			body string
			ex   bool
			// check inspects the first item (task t1).
			check func(t *testing.T, item map[string]any)
		}{
			{"only_fields keeps the named fields and id", `{"id": "t1", "only_fields": ["name"]}`, false, func(t *testing.T, it map[string]any) {
				if got := keys(it); !reflect.DeepEqual(got, []string{"id", "name"}) {
					t.Errorf("fields %v", got)
				}
			}},
			{"nested path", `{"id": "t1", "only_fields": ["hyperparams.Args.lr.value"]}`, false, func(t *testing.T, it map[string]any) {
				want := map[string]any{"Args": map[string]any{"lr": map[string]any{"value": "0.1"}}}
				if !reflect.DeepEqual(it["hyperparams"], want) || len(it) != 2 {
					t.Errorf("item %v", it)
				}
			}},
			{"path into a list", `{"id": "t1", "only_fields": ["models.input.model"]}`, false, func(t *testing.T, it map[string]any) {
				want := map[string]any{"input": []any{map[string]any{"model": "m1"}}}
				if !reflect.DeepEqual(it["models"], want) {
					t.Errorf("models %v", it["models"])
				}
			}},
			{"projection wins over only_fields", `{"id": "t1", "only_fields": ["name"], "projection": ["status"]}`, false, func(t *testing.T, it map[string]any) {
				if got := keys(it); !reflect.DeepEqual(got, []string{"id", "status"}) {
					t.Errorf("fields %v", got)
				}
			}},
			{"hidden fields are left out", `{"id": "t1"}`, false, func(t *testing.T, it map[string]any) {
				if _, ok := it["runtime"]; ok || it["name"] != "alpha train" {
					t.Errorf("item %v", keys(it))
				}
			}},
			{"named hidden fields come back", `{"id": "t1", "only_fields": ["runtime"]}`, false, func(t *testing.T, it map[string]any) {
				if !reflect.DeepEqual(it["runtime"], map[string]any{"gpu": "yes"}) {
					t.Errorf("runtime %v", it["runtime"])
				}
			}},
			{"exclusion", `{"id": "t1", "only_fields": ["*", "-name", "-hyperparams.Args.lr"]}`, false, func(t *testing.T, it map[string]any) {
				hp, _ := it["hyperparams"].(map[string]any)
				args, _ := hp["Args"].(map[string]any)
				if _, ok := it["name"]; ok || args["lr"] != nil || args["batch"] == nil || it["status"] != "created" {
					t.Errorf("item %v", it)
				}
			}},
			{"alias", `{"id": "t1", "only_fields": ["execution.parameters.batch"]}`, false, func(t *testing.T, it map[string]any) {
				hp, _ := it["hyperparams"].(map[string]any)
				if hp == nil || hp["Args"] == nil {
					t.Errorf("item %v", it)
				}
			}},
			{"_ex reference with its name", `{"id": "t1", "only_fields": ["project.name"]}`, true, func(t *testing.T, it map[string]any) {
				if want := map[string]any{"id": "p1", "name": "Project One"}; !reflect.DeepEqual(it["project"], want) {
					t.Errorf("project %v", it["project"])
				}
			}},
			{"_ex reference without names", `{"id": "t1", "only_fields": ["project"]}`, true, func(t *testing.T, it map[string]any) {
				if want := map[string]any{"id": "p1"}; !reflect.DeepEqual(it["project"], want) {
					t.Errorf("project %v", it["project"])
				}
			}},
		} {
			t.Run(c.name, func(t *testing.T) {
				res, err := list(db, c.body, query.Options{Ex: c.ex})
				if err != nil {
					t.Fatal(err)
				}
				if len(res.Items) != 1 {
					t.Fatalf("items %v", res.Items)
				}
				c.check(t, res.Items[0])
			})
		}
		_, err := list(db, `{"only_fields": ["nope"]}`, query.Options{})
		var ae *apierr.Error
		if !errors.As(err, &ae) || ae.Subcode != 14 {
			t.Fatalf("unknown field: %v", err)
		}
	})
}

func TestIncludes(t *testing.T) {
	d := storetest.Open(t, "sqlite").D
	for _, c := range []struct {
		fields []string
		in     map[string]bool
	}{
		{nil, map[string]bool{"name": true, "entries": true}},
		{[]string{"name"}, map[string]bool{"name": true, "entries": false}},
		{[]string{"*", "-entries"}, map[string]bool{"name": true, "entries": false}},
	} {
		body, _ := json.Marshal(map[string]any{"only_fields": c.fields})
		var req query.Request
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatal(err)
		}
		s := *schema
		s.Fields = append(append([]string{}, schema.Fields...), "entries")
		plan, err := query.Build(d, &s, &req, body, query.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for f, want := range c.in {
			if got := plan.Includes(f); got != want {
				t.Errorf("only_fields %v: Includes(%s) = %v", c.fields, f, got)
			}
		}
	}
}
