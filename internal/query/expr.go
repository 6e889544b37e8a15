package query

import (
	"strings"

	"github.com/trove-ml/trove/internal/store"
)

// frag is a SQL fragment with its arguments.
type frag struct {
	sql  string
	args []any
}

func joinFrags(fs []frag, op string) frag {
	var parts []string
	var args []any
	for _, f := range fs {
		if f.sql == "" {
			continue
		}
		parts = append(parts, f.sql)
		args = append(args, f.args...)
	}
	if len(parts) == 0 {
		return frag{}
	}
	if len(parts) == 1 {
		return frag{parts[0], args}
	}
	return frag{"(" + strings.Join(parts, " "+op+" ") + ")", args}
}

func not(f frag) frag { return frag{"NOT " + f.sql, f.args} }

// exprs builds field expressions for one schema and dialect.
type exprs struct {
	s *Schema
	d store.Dialect
}

// text is the text value of a field (column or JSON path).
func (e exprs) text(field string) frag {
	if c, ok := e.s.Columns[field]; ok {
		return frag{sql: c.Name}
	}
	return frag{e.d.JSONText("doc"), []any{e.d.JSONPathArg(splitPath(field))}}
}

// value is a field's value keeping JSON typing, for ordering.
func (e exprs) value(field string) frag {
	if c, ok := e.s.Columns[field]; ok {
		return frag{sql: c.Name}
	}
	return frag{e.d.JSONValue("doc"), []any{e.d.JSONPathArg(splitPath(field))}}
}

// json is a field's JSON value (for arrays).
func (e exprs) json(field string) frag {
	if c, ok := e.s.Columns[field]; ok {
		return frag{sql: c.Name}
	}
	return frag{e.d.JSONSub("doc"), []any{e.d.JSONPathArg(splitPath(field))}}
}

// has: the field equals v, or contains v when it is an array.
func (e exprs) has(field, v string) frag {
	if oa, ok := e.s.ObjectArrays[field]; ok {
		return frag{e.d.ArrayObjHas("doc"), []any{
			e.d.JSONPathArg(splitPath(oa[0])), e.d.JSONPathArg(splitPath(oa[1])), v}}
	}
	if e.s.isArray(field) {
		j := e.json(field)
		return frag{e.d.ArrayHas(j.sql), append(j.args, v)}
	}
	t := e.text(field)
	if has(e.s.CaseInsensitive, field) {
		return frag{"LOWER(" + t.sql + ") = LOWER(?)", append(t.args, v)}
	}
	return frag{t.sql + " = ?", append(t.args, v)}
}

// in: the scalar field is one of vals (one SQL IN for speed).
func (e exprs) in(field string, vals []string) frag {
	if len(vals) == 1 || e.s.isArray(field) || has(e.s.CaseInsensitive, field) || e.s.ObjectArrays[field] != [2]string{} {
		fs := make([]frag, len(vals))
		for i, v := range vals {
			fs[i] = e.has(field, v)
		}
		return joinFrags(fs, "OR")
	}
	t := e.text(field)
	return frag{t.sql + " IN (" + store.Placeholders(len(vals)) + ")", append(t.args, store.Args(vals)...)}
}

// empty: the field is missing, null, "" or an empty array.
func (e exprs) empty(field string) frag {
	if oa, ok := e.s.ObjectArrays[field]; ok {
		j := e.json(oa[0])
		return frag{e.d.ArrayLen(j.sql) + " = 0", j.args}
	}
	if e.s.isArray(field) {
		j := e.json(field)
		return frag{e.d.ArrayLen(j.sql) + " = 0", j.args}
	}
	t := e.text(field)
	return frag{"COALESCE(" + t.sql + ", '') = ''", t.args}
}
