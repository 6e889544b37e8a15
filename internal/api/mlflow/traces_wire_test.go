package mlflow

import (
	"encoding/json"
	"testing"
)

func TestPBTimes(t *testing.T) {
	for ms, want := range map[int64]string{0: "0.000s", 1500: "1.500s", 61001: "61.001s", -20: "-0.020s"} {
		if got := pbDuration(ms); got != want {
			t.Errorf("pbDuration(%d) = %s", ms, got)
		}
		back, err := parsePBDuration("d", json.RawMessage(`"`+want+`"`))
		if err != nil || back != ms {
			t.Errorf("parse %s: %d %v", want, back, err)
		}
	}
	if got, err := parsePBTime("t", json.RawMessage(`"1970-01-01T00:00:01.5Z"`)); err != nil || got != 1500 || pbTime(got) != "1970-01-01T00:00:01.500Z" {
		t.Errorf("time: %d %v", got, err)
	}
	for _, bad := range []string{`"1"`, `"xs"`, `"NaNs"`, `"1e300s"`, `3`, `{}`} {
		if _, err := parsePBDuration("d", json.RawMessage(bad)); err == nil {
			t.Errorf("duration %s accepted", bad)
		}
	}
}

// FuzzPBTimes: the Timestamp and Duration readers never panic.
func FuzzPBTimes(f *testing.F) {
	for _, s := range []string{`"1.5s"`, `"-2s"`, `"1970-01-01T00:00:01Z"`, `12`, `"Infinitys"`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_, _ = parsePBDuration("d", json.RawMessage(s))
		_, _ = parsePBTime("t", json.RawMessage(s))
	})
}

// FuzzDecodeOTLP: any export body decodes or fails with an error.
func FuzzDecodeOTLP(f *testing.F) {
	f.Add("application/json", []byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"q6urq6urq6urq6urq6urqw==","spanId":"AgICAgICAgI="}]}]}]}`))
	f.Add("application/x-protobuf", []byte{0x0a, 0x02, 0x12, 0x00})
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		_, _ = decodeOTLP(ct, body)
	})
}
