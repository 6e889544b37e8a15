package jsonx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// typeInfo is what the walker needs of a destination type; nil means
// "nothing inside can be a struct decoded by encoding/json".
type typeInfo struct {
	fields map[string]*typeInfo // struct: exact member name -> its field's info
	names  [][]byte             // struct: the member names, for folding
	elem   *typeInfo            // map, slice or array element
	isMap  bool
	isList bool
}

func (ti *typeInfo) foldsTo(key []byte) bool {
	for _, n := range ti.names {
		if bytes.EqualFold(n, key) {
			return true
		}
	}
	return false
}

var (
	typeInfos         sync.Map // reflect.Type -> *typeInfo (nil stored as noInfo)
	typeInfoBuild     sync.Mutex
	noInfo            = &typeInfo{}
	unmarshalerType   = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func typeInfoOf(t reflect.Type) *typeInfo {
	if v, ok := typeInfos.Load(t); ok {
		if v == noInfo {
			return nil
		}
		return v.(*typeInfo)
	}
	typeInfoBuild.Lock()
	defer typeInfoBuild.Unlock()
	info := buildTypeInfo(t, map[reflect.Type]*typeInfo{})
	if info == nil {
		typeInfos.Store(t, noInfo)
	} else {
		typeInfos.Store(t, info)
	}
	return info
}

// buildTypeInfo describes t and everything inside it; building holds the
// types being described, so recursive types point back at themselves.
func buildTypeInfo(t reflect.Type, building map[reflect.Type]*typeInfo) *typeInfo {
	for t.Kind() == reflect.Pointer {
		if customDecoded(t) {
			return nil
		}
		t = t.Elem()
	}
	if info, ok := building[t]; ok {
		return info
	}
	if customDecoded(t) || !mayHoldStruct(t, map[reflect.Type]bool{}) {
		return nil
	}
	info := &typeInfo{}
	building[t] = info
	switch t.Kind() {
	case reflect.Map:
		info.isMap, info.elem = true, buildTypeInfo(t.Elem(), building)
	case reflect.Slice, reflect.Array:
		info.isList, info.elem = true, buildTypeInfo(t.Elem(), building)
	case reflect.Struct:
		info.fields = map[string]*typeInfo{}
		for _, f := range reflect.VisibleFields(t) {
			name, ok := memberName(f)
			if !ok {
				continue
			}
			if _, dup := info.fields[name]; !dup {
				info.names = append(info.names, []byte(name))
			}
			info.fields[name] = buildTypeInfo(f.Type, building)
		}
	}
	return info
}

// memberName is the JSON member name of a struct field, as encoding/json
// names it; ok is false for fields it does not decode.
func memberName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, _, _ := strings.Cut(tag, ",")
	ft := f.Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
		return "", false // its fields are promoted
	}
	if !f.IsExported() {
		return "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, true
}

func customDecoded(t reflect.Type) bool {
	if t.Kind() == reflect.Interface {
		return true
	}
	pt := reflect.PointerTo(t)
	return t.Implements(unmarshalerType) || pt.Implements(unmarshalerType) ||
		t.Implements(textUnmarshalType) || pt.Implements(textUnmarshalType)
}

// mayHoldStruct reports whether a value of t can contain a struct that
// encoding/json decodes member by member.
func mayHoldStruct(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Array:
		if customDecoded(t) {
			return false
		}
		seen[t] = true
		defer delete(seen, t)
		return mayHoldStruct(t.Elem(), seen)
	case reflect.Struct:
		return !customDecoded(t)
	}
	return false
}
