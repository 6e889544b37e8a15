package query

import (
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// buildOrder compiles order_by. Missing or empty values of the first key
// sort last in both directions; numeric-looking strings under the numeric
// prefixes compare as numbers; id breaks ties, except after a NOT NULL
// first column, where insertion order does.
func (p *Plan) buildOrder(keys []string, searchText bool) error {
	var parts []string
	var args []any
	hasID := false
	tieBreak := "id ASC"
	for i, k := range keys {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		desc := strings.HasPrefix(k, "-")
		field := strings.TrimPrefix(k, "-")
		if field == "@text_score" {
			if !searchText {
				return apierr.FieldsValue("text score cannot be used without search_text")
			}
			continue
		}
		field = p.schema.canonical(field)
		if !p.schema.knownField(field) {
			return apierr.InvalidFields(field)
		}
		if field == "id" {
			hasID = true
		}
		if strings.HasPrefix(field, "hyperparams.") && len(splitPath(field)) == 3 {
			field += ".value"
		}
		dir := dirOf(desc)
		if c, isCol := p.schema.Columns[field]; i == 0 && isCol && c.NotNull {
			// Ties in insertion order, the way the first key goes: with
			// the rows' insertion key the database can read the order
			// from the (company, column) index instead of sorting them all.
			tieBreak = p.e.d.InsertOrder() + dirOf(desc)
		} else if i == 0 {
			last := p.emptyLast(field)
			parts = append(parts, last.sql)
			args = append(args, last.args...)
		}
		if hasPrefix(p.schema.NumericPrefixes, field) {
			t := p.e.text(field)
			parts = append(parts, p.e.d.Num(t.sql)+dir)
			args = append(args, t.args...)
		}
		v := p.e.value(field)
		parts = append(parts, v.sql+dir)
		args = append(args, v.args...)
	}
	if len(parts) == 0 {
		p.order = frag{sql: store.InsertOrderKey}
		return nil
	}
	if !hasID {
		parts = append(parts, tieBreak)
	}
	p.order = frag{strings.Join(parts, ", "), args}
	return nil
}

func dirOf(desc bool) string {
	if desc {
		return " DESC"
	}
	return " ASC"
}

// emptyLast is the sort key that puts the rows whose field is missing or
// empty after all others, whatever the direction: the reference sorts them
// last for the first order_by key. Time and boolean columns are empty when
// NULL and array columns when of length 0: comparing either with ” would
// fail on PostgreSQL.
func (p *Plan) emptyLast(field string) frag {
	t := p.e.text(field)
	switch c, isCol := p.schema.Columns[field]; {
	case isCol && (c.Kind == TimeMillis || c.Kind == Bool):
		return frag{"(CASE WHEN " + t.sql + " IS NULL THEN 1 ELSE 0 END) ASC", t.args}
	case isCol && c.Kind == JSONArray:
		return frag{"(CASE WHEN " + p.e.d.ArrayLen(c.Name) + " = 0 THEN 1 ELSE 0 END) ASC", nil}
	}
	args := append(append(append([]any{}, t.args...), t.args...), t.args...)
	return frag{"(CASE WHEN " + t.sql + " IS NULL OR " + t.sql + " = '' OR " + t.sql + " = '[]' THEN 1 ELSE 0 END) ASC", args}
}
