package query

import (
	"context"

	"github.com/trove-ml/trove/internal/store"
)

// DocsLate runs the plan as Docs does, in two steps: the ids of the page
// in order, then their documents. For orders over many rows by values
// outside the document (Expr), where a sort of whole documents would
// cost most of the call. When the first sort key is an Expr with a
// Driver, the ids come from walking the driver's index (pageDriven).
func (p *Plan) DocsLate(ctx context.Context, db *store.DB, table string, fn func(doc []byte) error) error {
	var ids []string
	err := Budgeted(ctx, func(ctx context.Context) error {
		var err error
		if len(p.orderKeys) > 0 && p.orderKeys[0].Expr != nil && p.orderKeys[0].Expr.Driver != nil {
			ids, err = p.pageDriven(ctx, db, table)
			return err
		}
		where, args := p.whereSQL()
		ids, err = db.ListIDs(ctx, table, where, args, p.order.sql, p.order.args, p.limit, p.offset)
		return err
	})
	if err = p.queryError(db, err); err != nil {
		return err
	}
	docs := make(map[string][]byte, len(ids))
	if err := db.DocsByID(ctx, table, ids, func(id string, doc []byte) error {
		docs[id] = doc
		return nil
	}); err != nil {
		return err
	}
	for _, id := range ids {
		if doc, ok := docs[id]; ok { // a row deleted between the steps is left out
			if err := fn(doc); err != nil {
				return err
			}
		}
	}
	return nil
}

// pageDriven reads the page's ids in the plan's order when its first key
// is held by a driver: first the rows with a value, walking the driver's
// index in order (the database stops after the page); then, when the page
// reaches past them, the rows without one (which sort last), by the other
// keys.
func (p *Plan) pageDriven(ctx context.Context, db *store.DB, table string) ([]string, error) {
	first := p.orderKeys[0]
	dr := first.Expr.Driver
	where, args := p.whereSQL()
	order, err := p.orderFrag(p.orderKeys[1:], frag{sql: dr.Value + dirOf(first.Desc)})
	if err != nil {
		return nil, err
	}
	ids, err := db.ListIDsDriven(ctx, table, *dr, where, args, order.sql, order.args, p.limit, p.offset)
	if err != nil || len(ids) == p.limit {
		return ids, err
	}
	// the rows with a value end on this page or before it
	valued := p.offset + len(ids)
	if len(ids) == 0 && p.offset > 0 {
		if valued, err = db.CountDriven(ctx, table, *dr, where, args); err != nil {
			return nil, err
		}
	}
	missing := joinFrags(append(append([]frag{}, p.conds...), frag{"(" + first.Expr.SQL + ") IS NULL", first.Expr.Args}), "AND")
	rest, err := p.orderFrag(p.orderKeys[1:], frag{})
	if err != nil {
		return nil, err
	}
	more, err := db.ListIDs(ctx, table, missing.sql, missing.args, rest.sql, rest.args, p.limit-len(ids), max(0, p.offset-valued))
	return append(ids, more...), err
}
