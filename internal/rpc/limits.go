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
// limits.ListItems, strings over their bound (see stringLimits) and
// strings holding a NUL, at any depth, with a 400 that names the field
// and the limit. The walk visits each decoded value once (so its cost is
// bounded by the body size) and spells a field's path only for an error.
func checkLimits(v reflect.Value) error {
	w := limitWalk{}
	return w.walk(v, 0)
}

// limitWalk holds the path of the value being checked, one name per
// level (a map's members are "*", a list's items share its name).
type limitWalk struct{ path []string }

func (w *limitWalk) field() string { return strings.Join(w.path, ".") }

func (w *limitWalk) walk(v reflect.Value, strLimit int) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		if e := v.Elem(); v.Kind() == reflect.Interface && e.Kind() == reflect.String && jsonx.IsSentinel(e.String()) {
			return nil // a NaN or Infinity in a free-form value: a number, echoed as sent
		}
		return w.walk(v.Elem(), strLimit)
	case reflect.Struct:
		for _, f := range limitFields(v.Type()) {
			w.path = append(w.path, f.name)
			err := w.walk(v.FieldByIndex(f.index), stringLimits[f.name])
			w.path = w.path[:len(w.path)-1]
			if err != nil {
				return err
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // raw JSON or bytes: bounded by the body size
		}
		if v.Len() > limits.ListItems {
			return limits.TooMany(w.field(), v.Len(), limits.ListItems)
		}
		for i := 0; i < v.Len(); i++ {
			if err := w.walk(v.Index(i), strLimit); err != nil {
				return err
			}
		}
	case reflect.Map:
		if v.Len() > limits.ListItems {
			return limits.TooMany(w.field(), v.Len(), limits.ListItems)
		}
		w.path = append(w.path, "*")
		defer func() { w.path = w.path[:len(w.path)-1] }()
		it := v.MapRange()
		for it.Next() {
			if k := it.Key(); k.Kind() == reflect.String && strings.IndexByte(k.String(), 0) >= 0 {
				return limits.CheckNUL(w.field(), k.String())
			}
			if err := w.walk(it.Value(), 0); err != nil {
				return err
			}
		}
	case reflect.String:
		if strLimit > 0 && v.Len() > strLimit {
			return limits.TooLong(w.field(), v.Len(), strLimit)
		}
		if s := v.String(); strings.IndexByte(s, 0) >= 0 { // the NaN sentinel too
			return limits.CheckNUL(w.field(), s)
		}
	}
	return nil
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
