package query

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/limits"
	"github.com/trove-ml/trove/internal/store"
)

// Options tune Build for one operation.
type Options struct {
	// Ex selects *_ex shaping (reference objects, id added).
	Ex bool
	// Skip lists body keys the caller handles itself.
	Skip []string
}

// Plan is a compiled list query.
type Plan struct {
	schema *Schema
	e      exprs
	conds  []frag
	order  frag
	// orderKeys are the typed keys of order (OrderBy), for DocsLate.
	orderKeys []OrderKey
	limit     int
	offset    int
	proj      projection
	ex        bool

	scroll   bool
	scrollID string
	size     int
	refresh  bool
	// patterns are the fields matched by a regex, named when the
	// database refuses a pattern.
	patterns []string
	// budget is the matching time all the plan's patterns share (SQLite).
	budget *store.PatternBudget
	// convert, when set, turns each stored document into its item.
	convert DocConverter
}

// reserved keys never treated as field filters.
var reserved = map[string]bool{
	"id": true, "name": true, "only_fields": true, "projection": true, "order_by": true,
	"page": true, "page_size": true, "search_text": true, "all": true, "any": true,
	"_all_": true, "_any_": true, "_and_": true, "_or_": true, "scroll_id": true,
	"size": true, "refresh_scroll": true, "search_hidden": true, "allow_public": true,
	"filters": true, "include_subprojects": true, "method": true,
}

// Build compiles the request. body is the raw request object (for
// entity-specific filter keys).
func Build(d store.Dialect, s *Schema, req *Request, body []byte, opts Options) (*Plan, error) {
	p := &Plan{schema: s, e: exprs{s, d}, ex: opts.Ex}
	var err error
	if p.scroll, p.scrollID, err = req.scrolling(); err != nil {
		return nil, err
	}
	if p.scroll {
		p.size, p.refresh = *req.Size, req.RefreshScroll
	} else if p.limit, p.offset, err = req.paging(); err != nil {
		return nil, err
	}

	if len(req.ID) > 0 {
		p.conds = append(p.conds, p.e.in("id", req.ID))
	}
	if req.Name != nil && *req.Name != "" {
		f, err := p.regex("name", *req.Name, false)
		if err != nil {
			return nil, err
		}
		p.conds = append(p.conds, f)
	}
	for _, pt := range []struct {
		key string
		p   *Pattern
		op  string
	}{{"all", req.All, "AND"}, {"_all_", req.AllU, "AND"}, {"_and_", req.And, "AND"},
		{"any", req.Any, "OR"}, {"_any_", req.AnyU, "OR"}, {"_or_", req.Or, "OR"}} {
		if pt.p == nil {
			continue
		}
		f, err := p.multiField(pt.key, pt.p, pt.op)
		if err != nil {
			return nil, err
		}
		p.conds = append(p.conds, f)
	}
	if n := len(strings.Fields(req.SearchText)); n > limits.SearchWords {
		return nil, limits.TooMany("search_text", n, limits.SearchWords)
	}
	if strings.TrimSpace(req.SearchText) != "" {
		p.conds = append(p.conds, p.searchText(req.SearchText))
	}
	if err := p.fieldFilters(body, req.Filters, opts.Skip); err != nil {
		return nil, err
	}
	if err := p.buildOrder(req.OrderBy, req.SearchText != ""); err != nil {
		return nil, err
	}
	fields := req.OnlyFields
	if req.Projection != nil {
		fields = req.Projection
	}
	if p.proj, err = parseProjection(s, fields, opts.Ex); err != nil {
		return nil, err
	}
	return p, nil
}

// Where adds a condition (with ? placeholders) to the plan.
func (p *Plan) Where(cond string, args ...any) {
	p.conds = append(p.conds, frag{cond, args})
}

// WhereIn adds "field is one of vals" for a schema field.
func (p *Plan) WhereIn(field string, vals []string) {
	p.conds = append(p.conds, p.e.in(field, vals))
}

func (p *Plan) regex(field, pattern string, ci bool) (frag, error) {
	if err := checkPattern(field, pattern); err != nil {
		return frag{}, err
	}
	if p.budget == nil {
		p.budget = &store.PatternBudget{}
	}
	arg, err := p.e.d.RegexArg(pattern, field, ci, p.budget)
	if err != nil {
		return frag{}, apierr.InvalidRegex(field, err.Error())
	}
	if !has(p.patterns, field) {
		p.patterns = append(p.patterns, field)
	}
	if _, token := arg.(string); token && arg != pattern {
		ci = false // the token carries the case flag
	}
	if p.schema.isArray(field) {
		// Any element matching: done through the element enumeration.
		j := p.e.json(field)
		from, val := p.e.d.ArrayElements(j.sql, "re")
		return frag{"EXISTS (SELECT 1 FROM " + from + " WHERE " + p.e.d.Regex(val, ci) + ")", append(j.args, arg)}, nil
	}
	t := p.e.text(field)
	return frag{p.e.d.Regex(t.sql, ci), append(t.args, arg)}, nil
}

func (p *Plan) multiField(key string, pt *Pattern, op string) (frag, error) {
	hasPattern := pt.Pattern != nil
	hasDate := len(pt.Datetime) > 0 && !bytes.Equal(pt.Datetime, []byte("null"))
	if hasPattern == hasDate {
		return frag{}, apierr.Validation(key, "exactly one of pattern and datetime is required")
	}
	if len(pt.Fields) > limits.FilterValues {
		return frag{}, limits.TooMany(key+".fields", len(pt.Fields), limits.FilterValues)
	}
	var parts []frag
	for _, f := range pt.Fields {
		f = p.schema.canonical(f)
		if hasPattern {
			// Regex order differs per dialect; build explicitly.
			fr, err := p.regex(f, *pt.Pattern, true)
			if err != nil {
				return frag{}, err
			}
			parts = append(parts, fr)
			continue
		}
		if !has(p.schema.DateTimeFields, f) {
			continue
		}
		fr, err := p.dateCondition(f, pt.Datetime)
		if err != nil {
			return frag{}, err
		}
		parts = append(parts, fr)
	}
	return joinFrags(parts, op), nil
}

func (p *Plan) searchText(text string) frag {
	var words []frag
	for _, w := range strings.Fields(text) {
		like := "%" + strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(w) + "%"
		var fs []frag
		for _, f := range p.schema.SearchText {
			t := p.e.text(f)
			fs = append(fs, frag{p.e.d.ILike(t.sql), append(t.args, like)})
		}
		words = append(words, joinFrags(fs, "OR"))
	}
	return joinFrags(words, "OR")
}

// fieldFilters reads entity-specific keys from the raw body.
func (p *Plan) fieldFilters(body []byte, filters map[string]json.RawMessage, skip []string) error {
	raw := map[string]json.RawMessage{}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &raw); err != nil {
			return apierr.ValidationMsg("request body: %s", err.Error())
		}
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := p.schema
	for _, k := range keys {
		if err := checkKey(k); err != nil {
			return err
		}
	}
	for k := range filters {
		if err := checkKey(k); err != nil {
			return err
		}
	}
	if n := countFilters(s, keys, filters); n > limits.FilterValues {
		return limits.TooMany("(filters)", n, limits.FilterValues)
	}
	for _, key := range keys {
		if reserved[key] || has(skip, key) {
			continue
		}
		val := raw[key]
		field := s.canonical(key)
		if _, ok := filters[key]; ok {
			continue // filters replace the plain parameter
		}
		if bytes.Equal(bytes.TrimSpace(val), []byte("null")) {
			// A field set to null asks nothing, as in the reference (the
			// web app's dashboard sends "user": null); null inside a
			// list is the "empty" value.
			continue
		}
		switch {
		case has(s.Patterns, field):
			var pat *string
			if err := json.Unmarshal(val, &pat); err != nil {
				return apierr.Validation(key, "expected a string pattern")
			}
			if pat != nil && *pat != "" {
				f, err := p.regex(field, *pat, false)
				if err != nil {
					return err
				}
				p.conds = append(p.conds, f)
			}
		case has(s.Lists, field) || hasPrefix(s.ListPrefixes, field):
			terms, err := parseListTerms(key, val)
			if err != nil {
				return err
			}
			if len(terms) == 0 {
				continue
			}
			f, err := p.e.listCondition(p.listField(field), terms)
			if err != nil {
				return err
			}
			p.conds = append(p.conds, f)
		case has(s.Ranges, field) || hasPrefix(s.RangePrefixes, field):
			f, err := p.rangeCondition(field, val)
			if err != nil {
				return err
			}
			p.conds = append(p.conds, f)
		case has(s.Dates, field):
			f, err := p.dateCondition(field, val)
			if err != nil {
				return err
			}
			p.conds = append(p.conds, f)
		case has(s.Equality, field) || hasPrefix(s.EqualityPrefixes, field):
			var v any
			if err := json.Unmarshal(val, &v); err != nil {
				return apierr.Validation(key, "bad value")
			}
			if v == nil {
				continue
			}
			t := p.e.text(field)
			p.conds = append(p.conds, frag{t.sql + " = ?", append(t.args, equalityArg(v, s.Columns[field]))})
		}
	}
	fkeys := make([]string, 0, len(filters))
	for k := range filters {
		fkeys = append(fkeys, k)
	}
	sort.Strings(fkeys)
	for _, key := range fkeys {
		field := s.canonical(key)
		if !(has(s.Lists, field) || hasPrefix(s.ListPrefixes, field)) {
			return apierr.Validation("filters", "field %s does not support filters", key)
		}
		f, err := p.e.filterCondition(p.listField(field), filters[key])
		if err != nil {
			return err
		}
		p.conds = append(p.conds, f)
	}
	return nil
}

// listField maps hyperparams.S.N to its stored value path.
func (p *Plan) listField(field string) string {
	if strings.HasPrefix(field, "hyperparams.") && len(splitPath(field)) == 3 {
		return field + ".value"
	}
	if strings.HasPrefix(field, "metadata.") && len(splitPath(field)) == 2 {
		return field + ".value"
	}
	return field
}

func equalityArg(v any, c Column) any {
	switch x := v.(type) {
	case bool:
		if c.Kind == Bool {
			return x
		}
		if x {
			return "true"
		}
		return "false"
	case float64:
		return fmt.Sprint(x)
	}
	return fmt.Sprint(v)
}

func (p *Plan) rangeCondition(field string, raw json.RawMessage) (frag, error) {
	if c, ok := p.schema.Columns[field]; ok && c.Kind == TimeMillis {
		// Date ranges on time columns arrive as dates: read them as dates.
		return p.dateRange(field, raw)
	}
	var bounds []*jsonx.Float
	if err := json.Unmarshal(raw, &bounds); err != nil || len(bounds) != 2 {
		return frag{}, apierr.Validation(field, "a range must be a list of two values [min, max]")
	}
	var expr frag
	if c, ok := p.schema.Columns[field]; ok {
		expr = frag{sql: c.Name}
	} else {
		t := p.e.text(field)
		expr = frag{p.e.d.Num(t.sql), t.args}
	}
	var parts []frag
	if bounds[0] != nil {
		parts = append(parts, frag{expr.sql + " >= ?", append(append([]any{}, expr.args...), float64(*bounds[0]))})
	}
	if bounds[1] != nil {
		parts = append(parts, frag{expr.sql + " <= ?", append(append([]any{}, expr.args...), float64(*bounds[1]))})
	}
	f := joinFrags(parts, "AND")
	if bounds[0] == nil && f.sql != "" {
		f = joinFrags([]frag{f, {expr.sql + " IS NULL", expr.args}}, "OR")
	}
	return f, nil
}

func (p *Plan) dateRange(field string, raw json.RawMessage) (frag, error) {
	var bounds []*string
	if err := json.Unmarshal(raw, &bounds); err != nil || len(bounds) != 2 {
		return frag{}, apierr.Validation(field, "a range must be a list of two values [min, max]")
	}
	col := p.schema.Columns[field].Name
	var parts []frag
	if bounds[0] != nil {
		if t, ok := jsonx.ParseTime(*bounds[0]); ok {
			parts = append(parts, frag{col + " >= ?", []any{t.Millis()}})
		}
	}
	if bounds[1] != nil {
		if t, ok := jsonx.ParseTime(*bounds[1]); ok {
			parts = append(parts, frag{col + " <= ?", []any{t.Millis()}})
		}
	}
	return joinFrags(parts, "AND"), nil
}

// dateCondition handles ">2024-01-01", ["<=x", ">y"], or [from, to].
func (p *Plan) dateCondition(field string, raw json.RawMessage) (frag, error) {
	var items []*string
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '[' {
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			return frag{}, apierr.Validation(field, "expected a date-time string or a list of them")
		}
		for _, it := range list {
			items = append(items, rawDateString(it))
		}
	} else {
		items = append(items, rawDateString(raw))
	}
	expr := p.dateExpr(field)
	ops := []string{">=", "<=", ">", "<"}
	prefixed := false
	for _, it := range items {
		if it != nil {
			for _, op := range ops {
				if strings.HasPrefix(*it, op) {
					prefixed = true
				}
			}
		}
	}
	var parts []frag
	if len(items) == 2 && !prefixed {
		for i, it := range items {
			if it == nil {
				continue
			}
			if t, ok := jsonx.ParseTime(*it); ok {
				op := ">="
				if i == 1 {
					op = "<="
				}
				parts = append(parts, frag{expr.sql + " " + op + " ?", append(append([]any{}, expr.args...), t.Millis())})
			}
		}
		return joinFrags(parts, "AND"), nil
	}
	for _, it := range items {
		if it == nil {
			continue
		}
		op, val := "=", *it
		for _, o := range ops {
			if strings.HasPrefix(val, o) {
				op, val = o, strings.TrimSpace(val[len(o):])
				break
			}
		}
		t, ok := parseDateOrEpoch(val)
		if !ok {
			continue // unparsable values are dropped, as the reference does
		}
		parts = append(parts, frag{expr.sql + " " + op + " ?", append(append([]any{}, expr.args...), t.Millis())})
	}
	return joinFrags(parts, "AND"), nil
}

// parseDateOrEpoch accepts ISO dates and (as the seeds say) epoch seconds.
func parseDateOrEpoch(s string) (jsonx.Time, bool) {
	if t, ok := jsonx.ParseTime(s); ok {
		return t, true
	}
	var f float64
	if _, err := fmt.Sscanf(s, "%g", &f); err == nil && regexp.MustCompile(`^\d+(\.\d+)?$`).MatchString(s) {
		return jsonx.FromEpoch(f), true
	}
	return jsonx.Time{}, false
}

func rawDateString(raw json.RawMessage) *string {
	var s *string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err == nil {
		str := n.String()
		return &str
	}
	return nil
}

// dateExpr is the epoch-ms expression of a date field.
func (p *Plan) dateExpr(field string) frag {
	if c, ok := p.schema.Columns[field]; ok && c.Kind == TimeMillis {
		return frag{sql: c.Name}
	}
	// Date stored only in the doc: compare its ISO text converted by the
	// dialect-neutral route of the column-less path (rare); fall back to text.
	t := p.e.text(field)
	return t
}
