package query

import (
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
)

// projection selects fields of result documents.
type projection struct {
	include [][]string
	exclude [][]string
	// refNames maps a reference field to the sub-fields asked of it
	// ("project" -> ["name"]).
	refNames map[string][]string
}

func parseProjection(s *Schema, fields []string, ex bool) (projection, error) {
	var p projection
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		neg := strings.HasPrefix(f, "-")
		f = s.canonical(strings.TrimPrefix(f, "-"))
		if f == "*" {
			if !neg {
				p.include = append(p.include, nil)
			}
			continue
		}
		f = strings.TrimSuffix(f, ".*")
		if !s.knownField(f) {
			return p, apierr.InvalidFields(f)
		}
		path := splitPath(f)
		if neg {
			p.exclude = append(p.exclude, path)
			continue
		}
		if ex {
			if ref, sub, ok := refSubField(s, f); ok {
				if p.refNames == nil {
					p.refNames = map[string][]string{}
				}
				p.refNames[ref] = append(p.refNames[ref], sub)
				path = splitPath(ref)
			}
		}
		p.include = append(p.include, path)
	}
	return p, nil
}

// refSubField splits "project.name" into ("project", "name") for refs.
func refSubField(s *Schema, f string) (string, string, bool) {
	for _, r := range s.Refs {
		if strings.HasPrefix(f, r+".") {
			return r, strings.TrimPrefix(f, r+"."), true
		}
	}
	return "", "", false
}

// apply projects one document in place and returns it.
func (p projection) apply(s *Schema, doc map[string]any, ex bool) map[string]any {
	var out map[string]any
	includeAll := false
	for _, inc := range p.include {
		if inc == nil {
			includeAll = true
		}
	}
	if len(p.include) == 0 || includeAll {
		out = doc
		if !includeAll || len(p.include) == 0 {
			for _, h := range s.Hidden {
				if !p.named(h) {
					delete(out, h)
				}
			}
		}
		for _, inc := range p.include {
			if inc != nil {
				copyPath(out, doc, inc)
			}
		}
	} else {
		out = map[string]any{}
		for _, inc := range p.include {
			copyPath(out, doc, inc)
		}
		// id always comes back; the SDK relies on it.
		if id, ok := doc["id"]; ok {
			out["id"] = id
		}
	}
	for _, exc := range p.exclude {
		deletePath(out, exc)
	}
	return out
}

func (p projection) named(field string) bool {
	for _, inc := range p.include {
		if len(inc) > 0 && inc[0] == field {
			return true
		}
	}
	return false
}

func copyPath(dst, src map[string]any, path []string) {
	v, ok := src[path[0]]
	if !ok {
		return
	}
	if len(path) == 1 {
		dst[path[0]] = v
		return
	}
	switch sv := v.(type) {
	case map[string]any:
		dm, ok := dst[path[0]].(map[string]any)
		if !ok {
			dm = map[string]any{}
			dst[path[0]] = dm
		}
		copyPath(dm, sv, path[1:])
	case []any:
		// A path into a list projects each element.
		out := make([]any, 0, len(sv))
		for _, it := range sv {
			if m, ok := it.(map[string]any); ok {
				nm := map[string]any{}
				copyPath(nm, m, path[1:])
				out = append(out, nm)
			}
		}
		dst[path[0]] = out
	}
}

func deletePath(m map[string]any, path []string) {
	if len(path) == 1 {
		delete(m, path[0])
		return
	}
	switch v := m[path[0]].(type) {
	case map[string]any:
		deletePath(v, path[1:])
	case []any:
		for _, it := range v {
			if mm, ok := it.(map[string]any); ok {
				deletePath(mm, path[1:])
			}
		}
	}
}
