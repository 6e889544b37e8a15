package rpc

import (
	"encoding/json"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/jsonx"
)

// meta is the envelope header, field order as the reference writes it.
type meta struct {
	ID         string         `json:"id"`
	Trx        string         `json:"trx"`
	Endpoint   metaEndpoint   `json:"endpoint"`
	ResultCode int            `json:"result_code"`
	ResultSub  int            `json:"result_subcode"`
	ResultMsg  string         `json:"result_msg"`
	ErrorStack *string        `json:"error_stack"`
	ErrorData  map[string]any `json:"error_data"`
}

type metaEndpoint struct {
	Name             string `json:"name"`
	RequestedVersion any    `json:"requested_version"`
	ActualVersion    any    `json:"actual_version"`
}

type envelope struct {
	Meta meta            `json:"meta"`
	Data json.RawMessage `json:"data"`
}

var emptyObject = json.RawMessage(`{}`)

// Encoded is a reply its handler has already encoded as valid, compact
// JSON: it goes into the envelope as is, where json.Marshal would check
// and copy every byte again (hundreds of kilobytes for a histogram).
type Encoded []byte

// MarshalJSON is the encoding itself, for any other encoder.
func (e Encoded) MarshalJSON() ([]byte, error) { return e, nil }

// encodeSuccess renders a 200 envelope around data.
func encodeSuccess(m meta, data any) ([]byte, error) {
	raw := emptyObject
	if e, ok := data.(*Encoded); ok && e != nil && len(*e) > 0 {
		raw = json.RawMessage(*e)
	} else if data != nil {
		b, err := json.Marshal(data)
		if err != nil {
			return nil, err
		}
		if string(b) != "null" {
			raw = b
		}
	}
	empty := ""
	m.ResultCode, m.ResultSub, m.ResultMsg, m.ErrorStack = 200, 0, "OK", &empty
	m.ErrorData = map[string]any{}
	// data is already valid JSON: splice it in rather than have the
	// encoder validate it a second time (large answers pay per byte).
	mb, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(mb)+len(raw)+20)
	b = append(b, `{"meta":`...)
	b = append(b, mb...)
	b = append(b, `,"data":`...)
	b = append(b, raw...)
	b = append(b, '}')
	return jsonx.Restore(b), nil
}

// encodeError renders an error envelope; stack is set only for 500/0.
func encodeError(m meta, e *apierr.Error, stack string) []byte {
	m.ResultCode, m.ResultSub, m.ResultMsg = e.Code, e.Subcode, e.Message()
	m.ErrorStack = nil
	if e.Code == 500 && e.Subcode == 0 {
		m.ErrorStack = &stack
	}
	m.ErrorData = map[string]any{}
	data := emptyObject
	if e.Reply != nil {
		if rb, err := json.Marshal(e.Reply); err == nil {
			data = rb
		}
	}
	b, err := json.Marshal(envelope{Meta: m, Data: data})
	if err != nil {
		// Error data that does not encode: drop it rather than fail the reply.
		m.ResultMsg = e.Msg
		b, _ = json.Marshal(envelope{Meta: m, Data: emptyObject})
	}
	return b
}
