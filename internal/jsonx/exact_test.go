package jsonx

import (
	"encoding/json"
	"testing"
)

type exactInner struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type exactEmbedded struct {
	Project string `json:"project"`
}

type exactReq struct {
	exactEmbedded
	Name   string                `json:"name"`
	Type   *string               `json:"type"`
	Items  []exactInner          `json:"items"`
	ByName map[string]exactInner `json:"by_name"`
	Free   map[string]any        `json:"free"`
	Raw    json.RawMessage       `json:"raw"`
	When   *Time                 `json:"when"`
	Plain  int
}

func TestUnmarshalExactNames(t *testing.T) {
	var r exactReq
	body := `{"Name":"wrong","name":"right","TYPE":"training","Project":"p",` +
		`"items":[{"KEY":"k","value":"v"}],"by_name":{"Key":{"Key":"x","key":"y"}},` +
		`"free":{"Name":1},"raw":{"Name":2},"plain":3,"method":"get"}`
	if err := Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "right" || r.Type != nil || r.Project != "" || r.Plain != 0 {
		t.Fatalf("case-folded names matched: %+v", r)
	}
	if r.Items[0].Key != "" || r.Items[0].Value != "v" {
		t.Fatalf("nested struct: %+v", r.Items)
	}
	if r.ByName["Key"].Key != "y" {
		t.Fatalf("map keys are data, values are structs: %+v", r.ByName)
	}
	if r.Free["Name"] != float64(1) || string(r.Raw) != `{"Name":2}` {
		t.Fatalf("untyped values must stay as sent: %+v %s", r.Free, r.Raw)
	}
}

func TestUnmarshalExactNamesKeepsGoodBodies(t *testing.T) {
	body := `{"name":"n","type":"t","project":"p","Plain":4,"items":[{"key":"k","value":"v"}],"when":"2024-01-02T03:04:05Z"}`
	var r exactReq
	if err := Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	if r.Name != "n" || *r.Type != "t" || r.Project != "p" || r.Plain != 4 || r.Items[0].Key != "k" || r.When == nil {
		t.Fatalf("bad decode %+v", r)
	}
	// an escaped member name is compared after unescaping
	r = exactReq{}
	if err := Unmarshal([]byte(`{"n\u0061me":"a","N\u0041ME":"b"}`), &r); err != nil || r.Name != "a" {
		t.Fatalf("escaped names: %+v %v", r, err)
	}
}

func TestUnmarshalExactNamesErrors(t *testing.T) {
	var r exactReq
	for _, body := range []string{`{"Name":`, `{"name":1}`, `[1]`, `{"items":[{"KEY":}]}`} {
		want := json.Unmarshal([]byte(body), &exactReq{})
		got := Unmarshal([]byte(body), &r)
		if (want == nil) != (got == nil) {
			t.Fatalf("%s: got %v, encoding/json %v", body, got, want)
		}
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	body := []byte(`{"name":"a task","type":"training","project":"0123456789abcdef","method":"get",` +
		`"items":[{"key":"a","value":"1"},{"key":"b","value":"2"},{"key":"c","value":"3"}],` +
		`"by_name":{"x":{"key":"x","value":"y"}},"free":{"lr":0.1,"layers":[1,2,3]},"when":"2024-01-02T03:04:05Z"}`)
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			var r exactReq
			if err := json.Unmarshal(body, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("exact", func(b *testing.B) {
		for b.Loop() {
			var r exactReq
			if err := Unmarshal(body, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
}
