package rpc

import (
	"reflect"
	"strings"
	"sync"

	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/limits"
)

// stringLimits bound string fields of typed requests by their JSON name
// (the same name means the same kind of value in every service).
var stringLimits = map[string]int{
	"name": limits.Name, "search_text": limits.SearchText,
	"tags": limits.Tag, "system_tags": limits.Tag,
	"status_reason": limits.Message, "status_message": limits.Message,
	"comment": limits.Comment, "description": limits.Comment,
}

// checkLimits refuses, in a decoded request, lists and maps longer than
// limits.ListItems and strings over their bound (see stringLimits), with
// a 400 that names the field and the limit.
func checkLimits(v reflect.Value) error {
	return walkLimits(v, "", 0, 0)
}

// maxLimitDepth stops the walk in deeply nested free-form values (those
// are bounded by the body size).
const maxLimitDepth = 8

func walkLimits(v reflect.Value, path string, strLimit, depth int) error {
	if depth > maxLimitDepth {
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		if e := v.Elem(); v.Kind() == reflect.Interface && e.Kind() == reflect.String && jsonx.IsSentinel(e.String()) {
			return nil // a NaN or Infinity in a free-form value: a number, echoed as sent
		}
		return walkLimits(v.Elem(), path, strLimit, depth)
	case reflect.Struct:
		for _, f := range limitFields(v.Type()) {
			if err := walkLimits(v.FieldByIndex(f.index), join(path, f.name), stringLimits[f.name], depth+1); err != nil {
				return err
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // raw JSON or bytes: bounded by the body size
		}
		if v.Len() > limits.ListItems {
			return limits.TooMany(path, v.Len(), limits.ListItems)
		}
		for i := 0; i < v.Len(); i++ {
			if err := walkLimits(v.Index(i), path, strLimit, depth+1); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.Len() > limits.ListItems {
			return limits.TooMany(path, v.Len(), limits.ListItems)
		}
		it := v.MapRange()
		for it.Next() {
			if k := it.Key(); k.Kind() == reflect.String {
				if err := limits.CheckNUL(join(path, "*"), k.String()); err != nil {
					return err
				}
			}
			if err := walkLimits(it.Value(), join(path, "*"), 0, depth+1); err != nil {
				return err
			}
		}
	case reflect.String:
		if strLimit > 0 && v.Len() > strLimit {
			return limits.TooLong(path, v.Len(), strLimit)
		}
		return limits.CheckNUL(path, v.String())
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

type limitField struct {
	index []int
	name  string
}

var limitFieldCache sync.Map // reflect.Type -> []limitField

// limitFields are the exported JSON fields of a struct, embedded structs
// flattened.
func limitFields(t reflect.Type) []limitField {
	if v, ok := limitFieldCache.Load(t); ok {
		return v.([]limitField)
	}
	var out []limitField
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous {
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, limitField{index: f.Index, name: name})
	}
	limitFieldCache.Store(t, out)
	return out
}
