package models_test

import (
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestGetAllQueries(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		top := mkProject(t, e, "zoo")
		sub := mkProject(t, e, "zoo/sub")
		task := putTask(t, e, taskFixture{project: top})
		a := mkModel(t, e, "alpha", obj{"framework": "PyTorch", "project": top, "task": task, "tags": []string{"best"},
			"labels": obj{"a": 1, "b": 2}, "metadata": []obj{{"key": "epochs", "type": "int", "value": "10"}}})
		b := mkModel(t, e, "beta", obj{"framework": "Keras", "project": sub, "ready": true, "comment": "second one",
			"metadata": []obj{{"key": "epochs", "type": "int", "value": "9"}}})
		c := mkModel(t, e, "gamma", obj{"uri": "s3://b/gamma.pt", "tags": []string{"old"}, "system_tags": []string{"archived"}})
		cases := []struct {
			name string
			body obj
			want []string
		}{
			{"all", obj{}, []string{a, b, c}},
			{"framework is case-insensitive", obj{"framework": []string{"pytorch"}}, []string{a}},
			{"ready true", obj{"ready": true}, []string{b}},
			{"ready false", obj{"ready": false}, []string{a, c}},
			{"task", obj{"task": []string{task}}, []string{a}},
			{"uri", obj{"uri": []string{"s3://b/gamma.pt"}}, []string{c}},
			{"user", obj{"user": []string{"__admin__"}}, []string{a, b, c}},
			{"other user", obj{"user": []string{"nobody"}}, nil},
			{"tag", obj{"tags": []string{"best"}}, []string{a}},
			{"not archived", obj{"system_tags": []string{"-archived"}}, []string{a, b}},
			{"tag operators", obj{"tags": []string{"__$not", "best"}}, []string{b, c}},
			{"project", obj{"project": []string{top}}, []string{a}},
			{"project with subprojects", obj{"project": []string{top}, "include_subprojects": true}, []string{a, b}},
			{"no project", obj{"project": []any{nil}}, []string{c}},
			{"subprojects or no project", obj{"project": []any{top, nil}, "include_subprojects": true}, []string{a, b, c}},
			{"subproject alone", obj{"project": sub, "include_subprojects": true}, []string{b}},
			{"name regex", obj{"name": "^(al|be)"}, []string{a, b}},
			{"comment regex", obj{"comment": "second"}, []string{b}},
			{"id", obj{"id": []string{a, c}}, []string{a, c}},
			{"metadata value", obj{"metadata.epochs": []string{"10"}}, []string{a}},
			{"search text", obj{"search_text": "gamma"}, []string{c}},
			{"last_update after", obj{"last_update": []string{">" + time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)}}, []string{a, b, c}},
			{"last_update before", obj{"last_update": []string{"<2001-01-01T00:00:00"}}, nil},
			{"last_change epoch", obj{"last_change": []string{">=1000000000"}}, []string{a, b, c}},
			{"created range", obj{"created": []any{"2001-01-01T00:00:00", nil}}, []string{a, b, c}},
			{"any pattern", obj{"_any_": obj{"fields": []string{"name", "comment"}, "pattern": "second|gamma"}}, []string{b, c}},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				sameIDs(t, "get_all", ids(e.Call(t, "models.get_all", tc.body).OK(t), "models"), tc.want...)
			})
		}
		// Ordering, paging, projection.
		r := e.Call(t, "models.get_all", obj{"order_by": []string{"-name"}, "only_fields": []string{"name"}}).OK(t)
		if r.Str("models.0.name") != "gamma" || r.Str("models.2.name") != "alpha" || testenv.Get(r.Data, "models.0.uri") != nil {
			t.Fatalf("order/projection: %s", r.Raw)
		}
		r = e.Call(t, "models.get_all", obj{"order_by": []string{"metadata.epochs.value"}, "metadata.epochs": []any{"__$any", "9", "10"}}).OK(t)
		if got := ids(r, "models"); len(got) != 2 || r.Str("models.0.id") != b {
			t.Fatalf("metadata orders numerically (9 before 10): %s", r.Raw)
		}
		if p := e.Call(t, "models.get_all", obj{"page": 1, "page_size": 2}).OK(t).List("models"); len(p) != 1 {
			t.Fatalf("page 1 of size 2: %d items", len(p))
		}
		// Scroll.
		s1 := e.Call(t, "models.get_all", obj{"scroll_id": nil, "size": 2}).OK(t)
		s2 := e.Call(t, "models.get_all", obj{"scroll_id": s1.Str("scroll_id"), "size": 2}).OK(t)
		s3 := e.Call(t, "models.get_all", obj{"scroll_id": s1.Str("scroll_id"), "size": 2}).OK(t)
		if len(s1.List("models")) != 2 || len(s2.List("models")) != 1 || len(s3.List("models")) != 0 || s1.Str("scroll_id") == "" {
			t.Fatalf("scroll pages %d %d %d", len(s1.List("models")), len(s2.List("models")), len(s3.List("models")))
		}
		// get_all_ex: references as objects, names on request, stats, filters.
		ex := e.Call(t, "models.get_all_ex", obj{"id": []string{a}, "only_fields": []string{"name", "project.name", "task.name", "user.name", "company"}, "include_stats": true}).OK(t)
		if ex.Str("models.0.project.id") != top || ex.Str("models.0.project.name") != "zoo" || ex.Str("models.0.task.id") != task ||
			ex.Str("models.0.task.name") != "fixture task" || ex.Str("models.0.user.id") != "__admin__" || ex.Num("models.0.stats.labels_count") != 2 ||
			ex.Str("models.0.company.id") == "" {
			t.Fatalf("get_all_ex refs/stats: %s", ex.Raw)
		}
		plain := e.Call(t, "models.get_all", obj{"id": []string{a}}).OK(t)
		if plain.Str("models.0.project") != top {
			t.Fatalf("get_all keeps plain ids: %s", plain.Raw)
		}
		f := e.Call(t, "models.get_all_ex", obj{"filters": obj{"tags": obj{"any": obj{"include": []string{"best", "old"}}}}}).OK(t)
		sameIDs(t, "filters", ids(f, "models"), a, c)
		e.Call(t, "models.get_all_ex", obj{"filters": obj{"tags": obj{"bogus": 1}}}).Err(t, 400, 12)
		e.Call(t, "models.get_all_ex", obj{"filters": obj{"name": obj{"any": obj{"include": []string{"x"}}}}}).Err(t, 400, 12)
		// get_by_id_ex needs id.
		e.Call(t, "models.get_by_id_ex", obj{}).Err(t, 400, 11)
		bx := e.Call(t, "models.get_by_id_ex", obj{"id": []string{b}}).OK(t)
		if bx.Str("models.0.project.id") != sub {
			t.Fatalf("get_by_id_ex: %s", bx.Raw)
		}
		// Bad queries.
		e.Call(t, "models.get_all", obj{"name": "("}).Err(t, 400, 21)
		e.Call(t, "models.get_all", obj{"only_fields": []string{"bogus"}}).Err(t, 400, 14)
		e.Call(t, "models.get_all", obj{"order_by": []string{"bogus"}}).Err(t, 400, 14)
		e.Call(t, "models.get_all", obj{"tags": []string{"__$bogus"}}).Err(t, 400, 16)
		e.Call(t, "models.get_all", obj{"created": []string{"x"}}).Err(t, 400, 12)
		e.Call(t, "models.get_all", obj{"page_size": 0}).Err(t, 400, 12)
		// Frameworks: distinct, sorted, by project with subprojects.
		fw := e.Call(t, "models.get_frameworks", nil).OK(t)
		if l := fw.List("frameworks"); len(l) != 2 || l[0] != "Keras" || l[1] != "PyTorch" {
			t.Fatalf("frameworks: %s", fw.Raw)
		}
		fw = e.Call(t, "models.get_frameworks", obj{"projects": []string{sub}}).OK(t)
		if l := fw.List("frameworks"); len(l) != 1 || l[0] != "Keras" {
			t.Fatalf("frameworks of sub: %s", fw.Raw)
		}
		fw = e.Call(t, "models.get_frameworks", obj{"projects": []string{top}}).OK(t)
		if l := fw.List("frameworks"); len(l) != 2 {
			t.Fatalf("frameworks include subprojects: %s", fw.Raw)
		}
	})
}
