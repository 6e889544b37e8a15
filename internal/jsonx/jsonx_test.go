package jsonx

import (
	"encoding/json"
	"math"
	"testing"
)

func TestSanitizeRoundTrip(t *testing.T) {
	cases := []struct{ in, out string }{
		{`{"a":1}`, `{"a":1}`},
		{`{"a":NaN,"b":"NaN","c":[Infinity,-Infinity]}`, `{"a":NaN,"b":"NaN","c":[Infinity,-Infinity]}`},
		{`{"s":"x\"NaN","v":NaN}`, `{"s":"x\"NaN","v":NaN}`},
	}
	for _, c := range cases {
		var v any
		if err := json.Unmarshal(Sanitize([]byte(c.in)), &v); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		b, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.out {
			t.Errorf("got %s want %s", b, c.out)
		}
	}
}

func TestFloat(t *testing.T) {
	var s struct {
		A, B, C, D Float
	}
	if err := json.Unmarshal(Sanitize([]byte(`{"A":NaN,"B":-Infinity,"C":2.5,"D":"3"}`)), &s); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(float64(s.A)) || !math.IsInf(float64(s.B), -1) || s.C != 2.5 || s.D != 3 {
		t.Fatalf("bad decode %+v", s)
	}
	b, _ := Marshal(s)
	if string(b) != `{"A":NaN,"B":-Infinity,"C":2.5,"D":3}` {
		t.Fatalf("bad encode %s", b)
	}
}
