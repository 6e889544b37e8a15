package organization_test

import (
	"strings"
	"testing"
	"time"

	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/testenv"
)

var exportOther = auth.FixedUser{ID: "export-other", Name: "other", AccessKey: "EXPORTOTHERKEY0000000000000", SecretKey: "export-other-secret-0000000000000000000", Role: auth.RoleUser, Company: "export-company"}

// prepare asks for a download and returns its id.
func prepare(t *testing.T, e *testenv.Env, body obj) string {
	t.Helper()
	return e.Call(t, "organization.prepare_download_for_get_all", body).OK(t).Str("prepare_id")
}

// download fetches a prepared file as the web app does, with the id in
// the query string.
func download(t *testing.T, e *testenv.Env, id string) *testenv.Response {
	t.Helper()
	r := e.Call(t, "organization.download_for_get_all?prepare_id="+id, nil)
	if r.Status != 200 {
		t.Fatalf("download: %d %s", r.Status, r.Raw)
	}
	return r
}

// The tasks table of one project as CSV: the columns asked, objects by
// id (or the joined name), values mapped, every cell quoted.
func TestExportTasks(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := e.Call(t, "projects.create", obj{"name": "Export Project"}).OK(t).Str("id")
		for _, n := range []string{"first task", `quote "task"`} {
			e.Call(t, "tasks.create", obj{"name": n, "type": "training", "project": p, "tags": []string{"a", "b"}}).OK(t)
		}
		e.Call(t, "tasks.create", obj{"name": "elsewhere", "type": "training"}).OK(t)
		id := prepare(t, e, obj{"entity_type": "task", "project": []string{p}, "order_by": []string{"name"},
			"only_fields": []string{"name", "status", "project.name", "tags", "type"},
			"field_mappings": []obj{
				{"field": "name", "name": "Name"},
				{"field": "status", "name": "Status", "values": []obj{{"key": "created", "value": "Draft"}}},
				{"field": "project.name", "name": "Project"},
				{"field": "tags"},
				{"field": "missing.path", "name": "Nothing"},
			}})
		r := download(t, e, id)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") {
			t.Fatalf("content type %q", ct)
		}
		if cd := r.Header.Get("Content-Disposition"); !strings.Contains(cd, "clearml-Export Project-tasks.csv") {
			t.Fatalf("file name: %q", cd)
		}
		want := "\ufeff" + `"Name","Status","Project","tags","Nothing"` + "\r\n" +
			`"first task","Draft","Export Project","[""a"",""b""]",""` + "\r\n" +
			`"quote ""task""","Draft","Export Project","[""a"",""b""]",""` + "\r\n"
		if string(r.Raw) != want {
			t.Fatalf("csv:\n%q\nwant\n%q", r.Raw, want)
		}
		// A query of no project or several has no project in the name;
		// the tasks without a project are "root".
		id = prepare(t, e, obj{"entity_type": "task", "only_fields": []string{"name"}, "field_mappings": []obj{{"field": "name"}}})
		if r = download(t, e, id); !strings.Contains(r.Header.Get("Content-Disposition"), `"clearml-tasks.csv"`) || strings.Count(string(r.Raw), "\r\n") != 4 {
			t.Fatalf("all tasks: %q %q", r.Header.Get("Content-Disposition"), r.Raw)
		}
		id = prepare(t, e, obj{"entity_type": "task", "project": []any{nil}, "only_fields": []string{"name"}, "field_mappings": []obj{{"field": "name"}}})
		if r = download(t, e, id); !strings.Contains(r.Header.Get("Content-Disposition"), "clearml-root-tasks.csv") {
			t.Fatalf("root: %q", r.Header.Get("Content-Disposition"))
		}
	})
}

// The models table, and the life of a prepared download: kept for five
// minutes, for its company only.
func TestExportModelsAndPreparedLifetime(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		now := time.Now()
		e.App.Deps.Now = func() time.Time { return now }
		e.Call(t, "models.create", obj{"name": "exported model", "uri": "file:///m", "ready": true}).OK(t)
		id := prepare(t, e, obj{"entity_type": "model", "only_fields": []string{"name", "ready"},
			"field_mappings": []obj{{"field": "name"}, {"field": "ready", "values": []obj{{"key": true, "value": "Published"}}}}})
		r := download(t, e, id)
		if want := "\ufeff\"name\",\"ready\"\r\n\"exported model\",\"Published\"\r\n"; string(r.Raw) != want ||
			!strings.Contains(r.Header.Get("Content-Disposition"), "clearml-models.csv") {
			t.Fatalf("models csv %q (%s)", r.Raw, r.Header.Get("Content-Disposition"))
		}
		other := e.Login(t, exportOther.AccessKey, exportOther.SecretKey)
		e.CallAs(t, other, "organization.download_for_get_all", obj{"prepare_id": id}).Err(t, 400, 10)
		now = now.Add(6 * time.Minute)
		e.Call(t, "organization.download_for_get_all", obj{"prepare_id": id}).Err(t, 400, 10)
		e.Call(t, "organization.download_for_get_all", obj{"prepare_id": "nope"}).Err(t, 400, 10)
	}, testenv.WithUsers(exportOther))
}

// Bad input is refused with a 400 naming the field.
func TestExportBadInput(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		base := func(extra obj) obj {
			o := obj{"entity_type": "task", "only_fields": []string{"name"}, "field_mappings": []obj{{"field": "name"}}}
			for k, v := range extra {
				if v == nil {
					delete(o, k)
				} else {
					o[k] = v
				}
			}
			return o
		}
		cases := []struct {
			name  string
			body  obj
			code  int
			field string
		}{
			{"no entity type", base(obj{"entity_type": nil}), 12, "entity_type"},
			{"unknown entity type", base(obj{"entity_type": "queue"}), 12, "entity_type"},
			{"no only_fields", base(obj{"only_fields": nil}), 12, "only_fields"},
			{"empty only_fields", base(obj{"only_fields": []string{}}), 12, "only_fields"},
			{"no field_mappings", base(obj{"field_mappings": nil}), 12, "field_mappings"},
			{"empty field_mappings", base(obj{"field_mappings": []obj{}}), 12, "field_mappings"},
			{"mapping without field", base(obj{"field_mappings": []obj{{"name": "x"}}}), 12, "field_mappings.0.field"},
			{"duplicate column name", base(obj{"field_mappings": []obj{{"field": "name"}, {"field": "id", "name": "name"}}}), 12, "field_mappings"},
			{"duplicate value key", base(obj{"field_mappings": []obj{{"field": "status", "values": []obj{{"key": "a", "value": "1"}, {"key": "a", "value": "2"}}}}}), 12, "field_mappings"},
			{"object value key", base(obj{"field_mappings": []obj{{"field": "status", "values": []obj{{"key": obj{}, "value": "1"}}}}}), 12, "field_mappings"},
			{"mappings not a list", base(obj{"field_mappings": "name"}), 12, "field_mappings"},
			{"bad query field", base(obj{"order_by": []string{"no_such_field"}}), 14, "no_such_field"},
			{"no prepare id", nil, 12, "prepare_id"},
		}
		for _, c := range cases {
			op := "organization.prepare_download_for_get_all"
			if c.body == nil {
				op, c.body = "organization.download_for_get_all", obj{}
			}
			if r := e.Call(t, op, c.body).Err(t, 400, c.code); !strings.Contains(r.Msg(), c.field) {
				t.Errorf("%s: %q does not name %s", c.name, r.Msg(), c.field)
			}
		}
		e.Call(t, "v2.25/organization.prepare_download_for_get_all", base(nil)).Err(t, 404, 0)
	})
}

// Cells a spreadsheet would run as formulas are written as text with a
// leading single quote (the reference's escape), in the rows and in the
// header; values that are numbers in the data stay numbers. (Task names
// lose leading whitespace on create, so tab and CR come in a runtime
// value.)
func TestExportEscapesFormulas(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := e.Call(t, "projects.create", obj{"name": "Formulas"}).OK(t).Str("id")
		names := []string{`=HYPERLINK("http://x","y")`, "+1+1", "-2+3", "@SUM(A1)", "plain=1"}
		notes := []string{"\t=1+2", "\r=1+2", "=1+2", "-7", "ok"}
		for i, n := range names {
			e.Call(t, "tasks.create", obj{"name": n, "type": "training", "project": p, "comment": strings.Repeat("a", i+1),
				"runtime": obj{"score": -1.5 * float64(i+1), "note": notes[i]}}).OK(t)
		}
		id := prepare(t, e, obj{"entity_type": "task", "project": []string{p}, "order_by": []string{"comment"},
			"only_fields":    []string{"name", "comment", "runtime"},
			"field_mappings": []obj{{"field": "name", "name": "=Name"}, {"field": "runtime.score", "name": "Score"}, {"field": "runtime.note", "name": "Note"}}})
		r := download(t, e, id)
		want := "\ufeff" + `"'=Name","Score","Note"` + "\r\n" +
			"\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\"-1.5\",\"'\t=1+2\"\r\n" +
			"\"'+1+1\",\"-3\",\"'\r=1+2\"\r\n" +
			`"'-2+3","-4.5","'=1+2"` + "\r\n" +
			`"'@SUM(A1)","-6","'-7"` + "\r\n" +
			`"plain=1","-7.5","ok"` + "\r\n"
		if string(r.Raw) != want {
			t.Fatalf("csv:\n%q\nwant\n%q", r.Raw, want)
		}
	})
}

// TestExportDottedParamNames: a hyper-parameter whose name holds a dot is
// asked for escaped (%2E), as the web app does, and its value exported.
func TestExportDottedParamNames(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		p := e.Call(t, "projects.create", obj{"name": "Dotted Project"}).OK(t).Str("id")
		e.Call(t, "tasks.create", obj{"name": "dotted", "type": "training", "project": p,
			"hyperparams": obj{"Args": obj{"lr.max": obj{"section": "Args", "name": "lr.max", "value": "0.25"}}}}).OK(t)
		field := "hyperparams.Args.lr%2Emax.value"
		id := prepare(t, e, obj{"entity_type": "task", "project": []string{p}, "only_fields": []string{"name", field},
			"field_mappings": []obj{{"field": "name"}, {"field": field, "name": "lr.max"}}})
		if got, want := string(download(t, e, id).Raw), "\ufeff"+`"name","lr.max"`+"\r\n"+`"dotted","0.25"`+"\r\n"; got != want {
			t.Fatalf("csv %q, want %q", got, want)
		}
	})
}
