package jsonx

import (
	"bytes"
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
)

// Unmarshal is json.Unmarshal with exact member names. encoding/json falls
// back to a case-insensitive match when no field has a member's exact name;
// the API's names are case-sensitive (seed document 1, request
// conventions), so such a member must count as unknown and be ignored.
//
// Before decoding, the body is walked along the destination type. A member
// of an object decoded into a struct whose name matches no field exactly
// but matches one case-insensitively is renamed so that it matches nothing.
// Bodies without such members (every body the clients send) are decoded
// unchanged. Values decoded by their own UnmarshalJSON are not walked: they
// decide their member names themselves.
func Unmarshal(data []byte, v any) error {
	if t := reflect.TypeOf(v); t != nil && t.Kind() == reflect.Pointer {
		w := exactWalker{b: data}
		if _, ok := w.value(0, typeInfoOf(t.Elem())); ok && len(w.fix) > 0 {
			data = w.renamed()
		}
	}
	return json.Unmarshal(data, v)
}

// unknownMark is inserted after the opening quote of a renamed member: no
// field name starts with a NUL character, in any case.
const unknownMark = `\u0000`

// exactWalker records the offsets of member names to rename.
type exactWalker struct {
	b   []byte
	fix []int // offsets of the opening quotes of member names
}

func (w *exactWalker) renamed() []byte {
	out := make([]byte, 0, len(w.b)+len(w.fix)*len(unknownMark))
	prev := 0
	for _, at := range w.fix {
		out = append(out, w.b[prev:at+1]...)
		out = append(out, unknownMark...)
		prev = at + 1
	}
	return append(out, w.b[prev:]...)
}

// value walks the JSON value at i as decoded into a type described by info
// and returns the offset after it; ok is false on malformed input (then
// json.Unmarshal reports the error).
func (w *exactWalker) value(i int, info *typeInfo) (int, bool) {
	i = skipSpace(w.b, i)
	if i >= len(w.b) {
		return i, false
	}
	switch {
	case info == nil:
	case w.b[i] == '{' && (info.fields != nil || info.isMap):
		return w.object(i, info)
	case w.b[i] == '[' && info.isList:
		return w.array(i, info.elem)
	}
	return skipValue(w.b, i)
}

// object walks an object decoded into a struct (info.fields) or a map.
func (w *exactWalker) object(i int, info *typeInfo) (int, bool) {
	i = skipSpace(w.b, i+1)
	if i < len(w.b) && w.b[i] == '}' {
		return i + 1, true
	}
	for i < len(w.b) {
		if w.b[i] != '"' {
			return i, false
		}
		keyAt := i
		end, escaped, ok := skipString(w.b, i)
		if !ok {
			return end, false
		}
		i = skipSpace(w.b, end)
		if i >= len(w.b) || w.b[i] != ':' {
			return i, false
		}
		var vi *typeInfo
		if info.isMap {
			vi = info.elem
		} else {
			key := w.b[keyAt+1 : end-1]
			if escaped {
				var s string
				if json.Unmarshal(w.b[keyAt:end], &s) != nil {
					return end, false
				}
				key = []byte(s)
			}
			var known bool
			if vi, known = info.fields[string(key)]; !known && info.foldsTo(key) {
				w.fix = append(w.fix, keyAt)
			}
		}
		if i, ok = w.value(i+1, vi); !ok {
			return i, false
		}
		var done bool
		if i, done, ok = afterItem(w.b, i, '}'); done || !ok {
			return i, ok
		}
		i = skipSpace(w.b, i)
	}
	return i, false
}

// afterItem reads what follows an object member or array element: a comma
// (i is then past it) or the closing bracket (done, i past it).
func afterItem(b []byte, i int, closing byte) (next int, done, ok bool) {
	i = skipSpace(b, i)
	switch {
	case i >= len(b):
		return i, false, false
	case b[i] == ',':
		return i + 1, false, true
	case b[i] == closing:
		return i + 1, true, true
	}
	return i, false, false
}

func (w *exactWalker) array(i int, elem *typeInfo) (int, bool) {
	i = skipSpace(w.b, i+1)
	if i < len(w.b) && w.b[i] == ']' {
		return i + 1, true
	}
	for i < len(w.b) {
		var ok, done bool
		if i, ok = w.value(i, elem); !ok {
			return i, false
		}
		if i, done, ok = afterItem(w.b, i, ']'); done || !ok {
			return i, ok
		}
	}
	return i, false
}

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

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString skips the string starting at b[i] == '"'; escaped reports a
// backslash inside.
func skipString(b []byte, i int) (end int, escaped, ok bool) {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '"':
			return i + 1, escaped, true
		case '\\':
			escaped = true
			i++
		}
	}
	return i, escaped, false
}

// skipValue skips any JSON value starting at b[i] (not whitespace).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		end, _, ok := skipString(b, i)
		return end, ok
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				end, _, ok := skipString(b, i)
				if !ok {
					return end, false
				}
				i = end
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1, true
				}
			}
			i++
		}
		return i, false
	}
	// number, true, false, null
	start := i
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\n', '\t', '\r':
			return i, i > start
		}
		i++
	}
	return i, i > start
}
