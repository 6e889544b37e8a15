package jsonx

import (
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"
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

// Bodies whose names are all exact decode exactly as encoding/json decodes
// them, whatever their layout.
func TestUnmarshalExactNamesSameAsStd(t *testing.T) {
	for _, body := range []string{
		`{}`, ` { } `, `{"name":null,"items":null,"by_name":null}`,
		"{\n\t\"name\" : \"a\" ,\r\n \"items\" : [ { \"key\" : \"k\" } , {} ] }",
		`{"items":[],"by_name":{},"free":{"a":[{"Name":1}],"b":"x\\\"y"}}`,
		`{"raw":[1,{"KEY":2}],"Plain":7,"type":"t","method":"get","extra":{"name":[1,2,{"x":"}"}]}}`,
	} {
		var want, got exactReq
		if err := json.Unmarshal([]byte(body), &want); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if err := Unmarshal([]byte(body), &got); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("%s:\n got %+v\nwant %+v", body, got, want)
		}
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

type benchProject struct {
	Project string `json:"project"`
}

// BenchmarkUnmarshal compares encoding/json with the exact-name decoding on
// a small body (projects.get_by_id as the SDK sends it) and a larger one
// with nested structs and maps.
func BenchmarkUnmarshal(b *testing.B) {
	small := []byte(`{"project":"0123456789abcdef0123456789abcdef","method":"get"}`)
	large := []byte(`{"name":"a task","type":"training","project":"0123456789abcdef","method":"get",` +
		`"items":[{"key":"a","value":"1"},{"key":"b","value":"2"},{"key":"c","value":"3"}],` +
		`"by_name":{"x":{"key":"x","value":"y"}},"free":{"lr":0.1,"layers":[1,2,3]},"when":"2024-01-02T03:04:05Z"}`)
	for _, c := range []struct {
		name   string
		decode func([]byte, any) error
	}{{"encoding-json", json.Unmarshal}, {"exact", Unmarshal}} {
		b.Run("small/"+c.name, func(b *testing.B) {
			for b.Loop() {
				var r benchProject
				if err := c.decode(small, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("large/"+c.name, func(b *testing.B) {
			for b.Loop() {
				var r exactReq
				if err := c.decode(large, &r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkUnmarshalOverhead alternates short rounds of both decoders and
// keeps each one's fastest round, which stays meaningful on a loaded
// machine; it reports the exact decoder's time relative to encoding/json.
func BenchmarkUnmarshalOverhead(b *testing.B) {
	small := []byte(`{"project":"0123456789abcdef0123456789abcdef","method":"get"}`)
	large := []byte(`{"name":"a task","type":"training","project":"0123456789abcdef","method":"get",` +
		`"items":[{"key":"a","value":"1"},{"key":"b","value":"2"},{"key":"c","value":"3"}],` +
		`"by_name":{"x":{"key":"x","value":"y"}},"free":{"lr":0.1,"layers":[1,2,3]},"when":"2024-01-02T03:04:05Z"}`)
	b.Run("small", func(b *testing.B) {
		compareDecoders(b, func(decode func([]byte, any) error) error {
			var r benchProject
			return decode(small, &r)
		})
	})
	b.Run("large", func(b *testing.B) {
		compareDecoders(b, func(decode func([]byte, any) error) error {
			var r exactReq
			return decode(large, &r)
		})
	})
}

func compareDecoders(b *testing.B, one func(decode func([]byte, any) error) error) {
	const n = 200
	round := func(decode func([]byte, any) error) time.Duration {
		start := time.Now()
		for range n {
			if err := one(decode); err != nil {
				b.Fatal(err)
			}
		}
		return time.Since(start)
	}
	bestStd, bestExact := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for b.Loop() {
		bestStd = min(bestStd, round(json.Unmarshal))
		bestExact = min(bestExact, round(Unmarshal))
	}
	b.ReportMetric(float64(bestStd.Nanoseconds())/n, "std-ns/op")
	b.ReportMetric(float64(bestExact.Nanoseconds())/n, "exact-ns/op")
	b.ReportMetric(float64(bestExact)/float64(bestStd), "ratio")
}
