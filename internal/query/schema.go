// Package query is the list-query machinery shared by every get_all,
// get_all_ex and get_by_id_ex: it turns the ClearML list-query language
// (patterns, list operators, ranges, dates, filters, projection, ordering,
// paging, scrolling) into SQL run by the database, and shapes the results.
package query

import "strings"

// ColumnKind says how a real column stores its value.
type ColumnKind int

const (
	// Text is a plain text column.
	Text ColumnKind = iota
	// TimeMillis is an epoch-milliseconds column holding a date-time field.
	TimeMillis
	// JSONArray is a JSON array of strings (tags).
	JSONArray
	// Bool is a boolean column.
	Bool
)

// Column maps an API field to a real column.
type Column struct {
	Name string
	Kind ColumnKind
	// NotNull says the column always holds a value (NOT NULL, never
	// empty), so ordering by it needs no "missing last" key and can walk
	// an index: the default newest-first list stays fast on large tables.
	NotNull bool
}

// Schema describes how one entity's fields map to SQL.
type Schema struct {
	// Entity names the record kind in messages ("task").
	Entity string
	// Columns maps API field names to real columns; every other field is
	// read from the doc JSON column.
	Columns map[string]Column
	// Fields are the known top-level field names (for only_fields/order_by
	// validation).
	Fields []string
	// Patterns are regex fields (case-sensitive, unanchored).
	Patterns []string
	// Lists are list-filter fields; ListPrefixes are map prefixes whose
	// members are list-filter fields ("hyperparams.").
	Lists        []string
	ListPrefixes []string
	// ArrayFields are fields that hold JSON arrays of strings.
	ArrayFields []string
	// ObjectArrays maps a list field that reads a member of an array of
	// objects ("models.input.model") to (array path, member path).
	ObjectArrays map[string][2]string
	// CaseInsensitive list fields compare without case ("type").
	CaseInsensitive []string
	// Ranges and RangePrefixes are [min, max] fields.
	Ranges        []string
	RangePrefixes []string
	// Dates are date-time constraint fields.
	Dates []string
	// Equality and EqualityPrefixes are plain equality fields.
	Equality         []string
	EqualityPrefixes []string
	// NumericPrefixes order strings numerically ("hyperparams.").
	NumericPrefixes []string
	// SearchText are the fields free-text search looks in.
	SearchText []string
	// Hidden fields are returned only when named in only_fields.
	Hidden []string
	// Refs are reference fields returned as {"id": ...} by *_ex reads.
	Refs []string
	// Aliases rewrite legacy path prefixes ("execution.parameters." →
	// "hyperparams.Args.").
	Aliases map[string]string
	// DateTimeFields are the fields the _any_/_all_ datetime form applies to.
	DateTimeFields []string
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasPrefix(prefixes []string, s string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// canonical applies aliases and unescapes %2E / %24 in path segments.
func (s *Schema) canonical(path string) string {
	for from, to := range s.Aliases {
		if strings.HasPrefix(path, from) {
			path = to + strings.TrimPrefix(path, from)
			break
		}
	}
	return path
}

// splitPath splits a dotted path, unescaping %2E and %24 inside segments.
func splitPath(path string) []string {
	parts := strings.Split(path, ".")
	for i, p := range parts {
		if strings.Contains(p, "%") {
			p = strings.ReplaceAll(p, "%2E", ".")
			p = strings.ReplaceAll(p, "%2e", ".")
			p = strings.ReplaceAll(p, "%24", "$")
			parts[i] = p
		}
	}
	return parts
}

// knownField reports whether path names a field of the entity.
func (s *Schema) knownField(path string) bool {
	first, _, _ := strings.Cut(path, ".")
	return has(s.Fields, first)
}

func (s *Schema) isArray(field string) bool {
	if c, ok := s.Columns[field]; ok {
		return c.Kind == JSONArray
	}
	return has(s.ArrayFields, field)
}

// TagsSchema is enough schema for list filters on the tags and system_tags
// columns of an entity's table (tag queries, worker filters).
func TagsSchema(entity string) *Schema {
	return &Schema{Entity: entity, Columns: map[string]Column{
		"tags": {Name: "tags", Kind: JSONArray}, "system_tags": {Name: "system_tags", Kind: JSONArray},
	}}
}
