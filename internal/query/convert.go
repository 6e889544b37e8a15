package query

import (
	"bytes"
	"encoding/json"
)

// DocConverter turns a stored document into the item a list answers
// (before projection): the one place an entity's stored shape becomes its
// wire shape.
type DocConverter func(doc []byte) (map[string]any, error)

// ConvertDocs makes Run pass every document through fn (nil: plain decoding).
func (p *Plan) ConvertDocs(fn DocConverter) { p.convert = fn }

// item is the answer item of one stored document.
func (p *Plan) item(doc []byte) (map[string]any, error) {
	if p.convert != nil {
		return p.convert(doc)
	}
	return DecodeItem(doc)
}

// DecodeItem decodes a JSON object as an item, keeping numbers as written.
func DecodeItem(doc []byte) (map[string]any, error) {
	m := map[string]any{}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
