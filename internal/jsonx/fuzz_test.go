package jsonx

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// FuzzTime: any JSON value decodes into a Time or is refused; what is
// accepted is inside years 1 to 9999 and survives a write and a read.
func FuzzTime(f *testing.F) {
	for _, s := range []string{
		`"2024-01-02T03:04:05.678+00:00"`, `"2024-01-02"`, `1700000000`, `1700000000123`, `null`,
		`253402300800000`, `-62135596801000`, `1e308`, `-1e18`, `123456789012345678901234567890`,
		`"10000-01-01T00:00:00+00:00"`, `"0000-12-31T00:00:00"`, `NaN`, `"x"`, `true`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v Time
		if json.Unmarshal(b, &v) != nil || v.IsZero() {
			return
		}
		if !v.InRange() {
			t.Fatalf("%q decoded to %v, outside years 1 to 9999", b, v.Time)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("marshal %v: %v", v.Time, err)
		}
		var back Time
		if err := json.Unmarshal(out, &back); err != nil || !back.Equal(v.Time) {
			t.Fatalf("%q -> %s -> %v (%v): not read back", b, out, back.Time, err)
		}
	})
}

// FuzzSanitize: Sanitize then Restore gives the input back, and a body
// whose only non-JSON tokens are NaN/Infinity becomes valid JSON.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{
		`{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN"}`, `{"s": "a\"NaN"}`, `[1, 2]`, `NaNNaN`, `"\`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if bytes.Contains(b, []byte(`\u0000trove:`)) || bytes.Contains(b, []byte("+Infinity")) {
			return // sentinels and a leading plus are not round-trip material
		}
		if got := Restore(Sanitize(b)); !bytes.Equal(got, b) {
			t.Fatalf("Restore(Sanitize(%q)) = %q", b, got)
		}
	})
}

// FuzzFloat: any number or non-finite token decodes and encodes back to
// the same value.
func FuzzFloat(f *testing.F) {
	for _, v := range []float64{0, 1.5, -2e300, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		out, err := Marshal(Float(v))
		if err != nil {
			t.Fatalf("marshal %v: %v", v, err)
		}
		var back Float
		if err := json.Unmarshal(Sanitize(out), &back); err != nil {
			t.Fatalf("unmarshal %s: %v", out, err)
		}
		if !(float64(back) == v || (math.IsNaN(v) && math.IsNaN(float64(back)))) {
			t.Fatalf("%v -> %s -> %v", v, out, float64(back))
		}
	})
}

func TestTimeBounds(t *testing.T) {
	cases := []struct {
		in string
		ok bool
	}{
		{`253402300799999`, true},  // 9999-12-31T23:59:59.999
		{`253402300800000`, false}, // year 10000
		{`-62135596800`, true},     // 0001-01-01 in epoch seconds
		{`-62135596801`, false},
		{`-62135596801000`, false},
		{`1e308`, false},
		{`-1e18`, false},
		{`123456789012345678901234567890`, false},
		{`"9999-12-31T23:59:59"`, true},
		{`"0000-06-01T00:00:00"`, false},
	}
	for _, c := range cases {
		var v Time
		err := json.Unmarshal([]byte(c.in), &v)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", c.in, err, c.ok)
		}
	}
}

func TestRepairDates(t *testing.T) {
	doc := []byte(`{"id": "x", "created": "10000-01-01T00:00:00+00:00", "started": "-292277022657-01-27T08:29:52+00:00",
		"last_update": "2024-01-01T00:00:00+00:00", "name": "2024-99-99T is not a date", "nested": [{"at": "12345-01-01T00:00:00"}]}`)
	fixed, ok := RepairDates(doc)
	if !ok {
		t.Fatal("nothing repaired")
	}
	var got struct {
		Created, Started Time
		LastUpdate       Time `json:"last_update"`
		Name             string
		Nested           []struct{ At Time }
	}
	if err := json.Unmarshal(fixed, &got); err != nil {
		t.Fatalf("repaired doc does not decode: %v\n%s", err, fixed)
	}
	if got.LastUpdate.Year() != 2024 {
		t.Fatalf("a readable date was changed: %v", got.LastUpdate.Time)
	}
	if got.Name != "2024-99-99T is not a date" {
		t.Fatalf("a string that is no date was changed: %q", got.Name)
	}
	if !got.Created.Equal(MaxTime.Time) || !got.Started.Equal(MinTime.Time) || !got.Nested[0].At.Equal(MaxTime.Time) {
		t.Fatalf("repaired dates: %+v", got)
	}
	if _, ok := RepairDates([]byte(`{"created": "2024-01-01T00:00:00+00:00"}`)); ok {
		t.Fatal("a readable document was changed")
	}
}
