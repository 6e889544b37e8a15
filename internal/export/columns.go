// Package export writes the tasks and models tables as CSV files, as the
// web app downloads them: a download is prepared from the table's list
// query and its columns, then fetched once as a file.
package export

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
)

// Column is one exported column: its header, the field path it reads
// (dotted, e.g. "project.name") and the display values of raw values.
type Column struct {
	Name   string
	Path   []string
	Values map[string]string
}

type mappingIn struct {
	Field  *string           `json:"field"`
	Name   *string           `json:"name"`
	Values []json.RawMessage `json:"values"`
}

type valueIn struct {
	Key   json.RawMessage `json:"key"`
	Value json.RawMessage `json:"value"`
}

// ParseColumns reads field_mappings: a non-empty list of {field, name,
// values: [{key, value}]}, names (the field when absent) and value keys
// unique, keys and values scalars or null.
func ParseColumns(raw json.RawMessage) ([]Column, error) {
	var in []json.RawMessage
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, apierr.Required("field_mappings")
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return nil, apierr.Validation("field_mappings", "expected a list of {field, name, values} objects")
	}
	if len(in) == 0 {
		return nil, apierr.Validation("field_mappings", "at least one column is required")
	}
	names := map[string]bool{}
	out := make([]Column, 0, len(in))
	for i, item := range in {
		var m mappingIn
		if err := json.Unmarshal(item, &m); err != nil {
			return nil, apierr.Validation("field_mappings", "item %d: expected {field, name, values}", i)
		}
		if m.Field == nil || *m.Field == "" {
			return nil, apierr.Required("field_mappings", i, "field")
		}
		c := Column{Name: *m.Field, Path: fieldPath(*m.Field)}
		if m.Name != nil && *m.Name != "" {
			c.Name = *m.Name
		}
		if names[c.Name] {
			return nil, apierr.Validation("field_mappings", "column name %q appears more than once", c.Name)
		}
		names[c.Name] = true
		if len(m.Values) > 0 {
			c.Values = map[string]string{}
		}
		for j, rv := range m.Values {
			var v valueIn
			if err := json.Unmarshal(rv, &v); err != nil {
				return nil, apierr.Validation("field_mappings", "item %d value %d: expected {key, value}", i, j)
			}
			key, ok := scalarKey(v.Key)
			if !ok {
				return nil, apierr.Validation("field_mappings", "item %d value %d: key must be a string, number, boolean or null", i, j)
			}
			if _, dup := c.Values[key]; dup {
				return nil, apierr.Validation("field_mappings", "item %d: value key %s appears more than once", i, bytes.TrimSpace(v.Key))
			}
			display, ok := scalarText(v.Value)
			if !ok {
				return nil, apierr.Validation("field_mappings", "item %d value %d: value must be a string, number, boolean or null", i, j)
			}
			c.Values[key] = display
		}
		out = append(out, c)
	}
	return out, nil
}

// scalarKey is the lookup key of a JSON scalar: its kind and canonical
// text, so that the string "1" and the number 1 differ and 1.0 equals 1.
func scalarKey(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "null", true
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	return keyOf(v)
}

// keyOf is scalarKey for a decoded value.
func keyOf(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "null", true
	case string:
		return "s:" + x, true
	case bool:
		return "b:" + strconv.FormatBool(x), true
	case json.Number:
		f, err := strconv.ParseFloat(x.String(), 64)
		if err != nil {
			return "n:" + x.String(), true
		}
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64), true
	case float64:
		return "n:" + strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}

// scalarText is the cell text of a JSON scalar (null: empty).
func scalarText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return "", true
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	switch v.(type) {
	case map[string]any, []any:
		return "", false
	}
	return cellText(v), true
}

// cellText is how a value is written in a cell: strings as they are,
// numbers and booleans as in JSON, objects by their id, lists as JSON,
// null as nothing.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case map[string]any:
		return cellText(x["id"])
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// Cell reads the column's value from an item and writes it as text,
// mapped to its display value when the column maps it. Text that a
// spreadsheet would run as a formula is escaped (asText); numbers are
// written as they are.
func (c *Column) Cell(item map[string]any) string {
	var v any = item
	for _, p := range c.Path {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		if v, ok = m[p]; !ok {
			return ""
		}
	}
	if m, ok := v.(map[string]any); ok {
		v = m["id"]
	}
	if c.Values != nil {
		if k, ok := keyOf(v); ok {
			if d, ok := c.Values[k]; ok {
				return asText(d)
			}
		}
	}
	switch v.(type) {
	case json.Number, float64:
		return cellText(v)
	}
	return asText(cellText(v))
}

// escapedSections hold user keys that the web app sends escaped in a
// field path (a dot as %2E, $ as %24, __ as %_%_, % as %%, a leading _ as
// %_).
var escapedSections = []string{"metadata", "hyperparams", "configuration"}

// fieldPath splits a dotted field path; under the escaped sections each
// part is unescaped, so a hyper-parameter named "lr.max" is found (as the
// reference from 2.3).
func fieldPath(field string) []string {
	path := strings.Split(field, ".")
	if len(path) < 2 || !slices.Contains(escapedSections, path[0]) {
		return path
	}
	for i, p := range path {
		path[i] = unescapeKey(p)
	}
	return path
}

// unescapeKey undoes the reference's parameter key escaping.
func unescapeKey(v string) string {
	parts := strings.Split(v, "%%")
	for i, p := range parts {
		p = strings.ReplaceAll(p, "%2E", ".")
		p = strings.ReplaceAll(p, "%24", "$")
		parts[i] = strings.ReplaceAll(p, "%_%_", "__")
	}
	v = strings.Join(parts, "%")
	if strings.HasPrefix(v, "%_") {
		v = "_" + v[2:]
	}
	return v
}
