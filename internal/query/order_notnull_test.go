package query

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A NOT NULL first column needs no "missing last" key, and its ties go in
// insertion order the way it goes: the database then reads the order from
// the (company, column) index instead of sorting every row.
func TestOrderNotNullColumnHasNoEmptyLastKey(t *testing.T) {
	s := &Schema{
		Entity: "task",
		Columns: map[string]Column{
			"id":          {Name: "id"},
			"name":        {Name: "name"},
			"last_update": {Name: "last_update", Kind: TimeMillis, NotNull: true},
			"started":     {Name: "started", Kind: TimeMillis},
		},
		Fields: []string{"id", "name", "last_update", "started"},
	}
	cases := []struct {
		order    string
		wantCase bool
		tieBreak string // the last key, with the dialect's insertion key as INSERT
	}{
		{`["-last_update"]`, false, "INSERT DESC"},
		{`["last_update", "name"]`, false, "INSERT ASC"},
		{`["-started"]`, true, "id ASC"},
		{`["name", "-last_update"]`, true, "id ASC"},
		{`["-last_update", "id"]`, false, "id ASC"},
	}
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		for _, c := range cases {
			body := []byte(`{"order_by": ` + c.order + `}`)
			var req Request
			if err := json.Unmarshal(body, &req); err != nil {
				t.Fatal(err)
			}
			p, err := Build(db.D, s, &req, body, Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.order, err)
			}
			if got := strings.Contains(p.order.sql, "CASE WHEN"); got != c.wantCase {
				t.Errorf("%s: CASE key present = %v, want %v; order %q", c.order, got, c.wantCase, p.order.sql)
			}
			want := strings.Replace(c.tieBreak, "INSERT", db.D.InsertOrder(), 1)
			if !strings.HasSuffix(p.order.sql, want) {
				t.Errorf("%s: order %q does not end with %q", c.order, p.order.sql, want)
			}
		}
	})
}
