package query

import (
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/store"
)

// buildOrder compiles order_by. Missing or empty values of the first key
// sort last in both directions; numeric-looking strings under the numeric
// prefixes compare as numbers; id breaks ties.
func (p *Plan) buildOrder(keys []string, searchText bool) error {
	var parts []string
	var args []any
	hasID := false
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
		dir := " ASC"
		if desc {
			dir = " DESC"
		}
		if i == 0 {
			if _, isCol := p.schema.Columns[field]; !isCol || p.schema.Columns[field].Kind == Text {
				t := p.e.text(field)
				parts = append(parts, "(CASE WHEN "+t.sql+" IS NULL OR "+t.sql+" = '' OR "+t.sql+" = '[]' THEN 1 ELSE 0 END) ASC")
				args = append(args, t.args...)
				args = append(args, t.args...)
				args = append(args, t.args...)
			}
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
		parts = append(parts, "id ASC")
	}
	p.order = frag{strings.Join(parts, ", "), args}
	return nil
}
