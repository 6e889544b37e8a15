package query

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// scrollTTL is how long an idle list scroll is kept.
const scrollTTL = 600 * time.Second

// Result is one page of a list query.
type Result struct {
	Items []map[string]any
	// ScrollID is set in scroll mode.
	ScrollID *string
}

// RefTables maps reference fields to the tables holding their names, for
// *_ex reads ("project" -> "projects").
type RefTables map[string]string

// Run executes the plan against table for company. Scroll state lives in
// the database so every Trove process sees the same position.
func (p *Plan) Run(ctx context.Context, db *store.DB, table, company string, refs RefTables) (*Result, error) {
	res := &Result{}
	limit, offset := p.limit, p.offset
	var scrollPos int
	if p.scroll {
		id, pos, err := p.loadScroll(ctx, db, company)
		if err != nil {
			return nil, err
		}
		res.ScrollID = &id
		scrollPos = pos
		if p.refresh {
			limit, offset = max(pos, p.size), 0
		} else {
			limit, offset = p.size, pos
		}
	}
	where, args := p.whereSQL()
	err := Budgeted(ctx, func(ctx context.Context) error {
		return db.ListDocs(ctx, table, where, args, p.order.sql, p.order.args, limit, offset, func(doc []byte) error {
			m, err := p.item(doc)
			if err != nil {
				return fmt.Errorf("decode %s: %w", table, err)
			}
			res.Items = append(res.Items, m)
			return nil
		})
	})
	if err != nil {
		return nil, p.queryError(db, err)
	}
	if p.ex {
		if err := p.resolveRefs(ctx, db, res.Items, refs); err != nil {
			return nil, err
		}
	}
	for i, m := range res.Items {
		res.Items[i] = p.proj.apply(p.schema, m, p.ex)
	}
	if res.Items == nil {
		res.Items = []map[string]any{}
	}
	if p.scroll {
		newPos := offset + len(res.Items)
		if p.refresh {
			newPos = len(res.Items)
		}
		if newPos < scrollPos && !p.refresh {
			newPos = scrollPos
		}
		if err := p.saveScroll(ctx, db, *res.ScrollID, company, newPos); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Count returns the number of records matching the plan's conditions.
func (p *Plan) Count(ctx context.Context, db *store.DB, table string) (int, error) {
	where, args := p.whereSQL()
	var n int
	err := Budgeted(ctx, func(ctx context.Context) (err error) {
		n, err = db.CountWhere(ctx, table, where, args)
		return err
	})
	return n, p.queryError(db, err)
}

// queryError turns a pattern the database's regex engine refused into
// the 400 of a malformed pattern; Go's engine, which checked it, accepts
// some syntax PostgreSQL's does not (\p{Greek}, a{1000}, (?P<n>...)).
func (p *Plan) queryError(db *store.DB, err error) error {
	if err == nil {
		return nil
	}
	if reason, ok := db.D.InvalidPattern(err); ok {
		return apierr.InvalidRegex(strings.Join(p.patterns, ","), reason)
	}
	return err
}

func (p *Plan) whereSQL() (string, []any) {
	f := joinFrags(p.conds, "AND")
	if f.sql == "" {
		return "1=1", nil
	}
	return f.sql, append([]any{}, f.args...)
}

func (p *Plan) loadScroll(ctx context.Context, db *store.DB, company string) (string, int, error) {
	if p.scrollID != "" {
		pos, ok, err := db.ListScrollPosition(ctx, p.scrollID, company, time.Now().UnixMilli())
		if err != nil {
			return "", 0, err
		}
		if ok {
			return p.scrollID, pos, nil
		}
	}
	// Unknown or expired: a new scroll from the start.
	return newScrollID(), 0, nil
}

func (p *Plan) saveScroll(ctx context.Context, db *store.DB, id, company string, pos int) error {
	now := time.Now()
	return db.SaveListScroll(ctx, id, company, pos, now.UnixMilli(), now.Add(scrollTTL).UnixMilli())
}

// resolveRefs rewrites reference fields as {"id": ...} objects, adding the
// sub-fields (name) asked for in only_fields.
func (p *Plan) resolveRefs(ctx context.Context, db *store.DB, items []map[string]any, refs RefTables) error {
	for _, ref := range p.schema.Refs {
		path := splitPath(ref)
		subs := p.proj.refNames[ref]
		var names map[string]map[string]any
		if len(subs) > 0 && refs[ref] != "" {
			ids := map[string]bool{}
			for _, it := range items {
				visitRef(it, path, func(id string) any { ids[id] = true; return id })
			}
			var err error
			if names, err = lookupNames(ctx, db, refs[ref], ids, subs); err != nil {
				return err
			}
		}
		for _, it := range items {
			visitRef(it, path, func(id string) any {
				if id == "" {
					return map[string]any{}
				}
				obj := map[string]any{"id": id}
				for k, v := range names[id] {
					obj[k] = v
				}
				return obj
			})
		}
	}
	return nil
}

// visitRef replaces the string at path (descending into lists) with fn's result.
func visitRef(m map[string]any, path []string, fn func(string) any) {
	v, ok := m[path[0]]
	if !ok {
		return
	}
	if len(path) == 1 {
		if s, ok := v.(string); ok {
			m[path[0]] = fn(s)
		}
		return
	}
	switch x := v.(type) {
	case map[string]any:
		visitRef(x, path[1:], fn)
	case []any:
		for _, it := range x {
			if mm, ok := it.(map[string]any); ok {
				visitRef(mm, path[1:], fn)
			}
		}
	}
}

func lookupNames(ctx context.Context, db *store.DB, table string, ids map[string]bool, subs []string) (map[string]map[string]any, error) {
	out := map[string]map[string]any{}
	if len(ids) == 0 {
		return out, nil
	}
	list := make([]string, 0, len(ids))
	for id := range ids {
		list = append(list, id)
	}
	err := db.DocsByID(ctx, table, list, func(id string, doc []byte) error {
		m := map[string]any{}
		if err := json.Unmarshal(doc, &m); err != nil {
			return err
		}
		sel := map[string]any{}
		for _, s := range subs {
			if v, ok := m[strings.Split(s, ".")[0]]; ok {
				sel[strings.Split(s, ".")[0]] = v
			}
		}
		out[id] = sel
		return nil
	})
	return out, err
}

func newScrollID() string {
	return strings.ReplaceAll(fmt.Sprintf("%x", time.Now().UnixNano()), "-", "") + randHex(8)
}
