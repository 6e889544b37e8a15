package query

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/store/storetest"
)

// A NOT NULL column needs no "missing last" key: without it the database
// can walk an index in order instead of sorting every row.
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
	}{
		{`["-last_update"]`, false},
		{`["last_update", "name"]`, false},
		{`["-started"]`, true},
		{`["name", "-last_update"]`, true},
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
		}
	})
}
