package jsonx

import (
	"encoding/json"
	"reflect"
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
