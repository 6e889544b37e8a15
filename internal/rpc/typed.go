package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
)

// Validator is implemented by request types with rules beyond required fields.
type Validator interface{ Validate() error }

// Typed adapts a typed handler: it decodes the body into Req, checks fields
// tagged `required:"true"`, runs Validate, and calls fn.
func Typed[Req any, Resp any](fn func(ctx context.Context, c *Call, req *Req) (*Resp, error)) Handler {
	return func(ctx context.Context, c *Call) (any, error) {
		req := new(Req)
		if err := Decode(c.Body, req); err != nil {
			return nil, err
		}
		resp, err := fn(ctx, c, req)
		if err != nil {
			return nil, err
		}
		if resp == nil {
			return struct{}{}, nil
		}
		return resp, nil
	}
}

// Decode unmarshals an object body into dst and validates it. Member names
// match fields exactly (a name spelled in another case is unknown); unknown
// fields are ignored (clients add fields such as "method"); type errors name
// the field.
func Decode(body []byte, dst any) error {
	if len(body) > 0 {
		if err := jsonx.Unmarshal(body, dst); err != nil {
			return decodeError(err)
		}
	}
	if err := checkRequired(reflect.ValueOf(dst).Elem(), ""); err != nil {
		return err
	}
	if err := checkLimits(reflect.ValueOf(dst).Elem()); err != nil {
		return err
	}
	if v, ok := dst.(Validator); ok {
		return v.Validate()
	}
	return nil
}

func decodeError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(body)"
		}
		return apierr.Validation(field, "value is wrong, expected type %s, got %s", jsonKind(te.Type), te.Value)
	}
	if ae := apierr.As(err); ae != nil {
		return ae
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return apierr.MalformedJSON(se.Error())
	}
	return apierr.ValidationMsg("%s", err.Error())
}

func jsonKind(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return t.String()
}

type reqField struct {
	index []int
	name  string
}

var requiredCache sync.Map // reflect.Type -> []reqField

func requiredFields(t reflect.Type) []reqField {
	if v, ok := requiredCache.Load(t); ok {
		return v.([]reqField)
	}
	var out []reqField
	for _, f := range reflect.VisibleFields(t) {
		if f.Tag.Get("required") != "true" {
			continue
		}
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "" {
			name = f.Name
		}
		out = append(out, reqField{index: f.Index, name: name})
	}
	requiredCache.Store(t, out)
	return out
}

// checkRequired refuses zero values (nil pointers, empty strings, nil
// slices and maps) in fields tagged required.
func checkRequired(v reflect.Value, prefix string) error {
	if v.Kind() != reflect.Struct {
		return nil
	}
	for _, f := range requiredFields(v.Type()) {
		fv := v.FieldByIndex(f.index)
		if isMissing(fv) {
			return apierr.Required(prefix + f.name)
		}
	}
	return nil
}

func isMissing(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice:
		return v.IsNil()
	case reflect.String:
		return v.Len() == 0
	}
	return false
}

// decodeObject checks that a body is a JSON object.
func isObject(b []byte) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{'
}
