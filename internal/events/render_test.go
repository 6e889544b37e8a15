package events

import (
	"testing"

	"github.com/trove-ml/trove/internal/store/eventstore"
)

func TestRenderLogForms(t *testing.T) {
	level, msg := "INFO", "hello"
	extra := `{"custom":1}`
	r := &eventstore.LogRow{Task: "t1", TS: 1000, WTS: 2000, Level: &level, Msg: &msg, Metric: "m", Variant: "v", Extra: &extra}
	read := string(RenderLog(r))
	want := `{"timestamp":1000,"type":"log","task":"t1","level":"INFO","msg":"hello","metric":"m","variant":"v",` +
		`"model_event":false,"@timestamp":"1970-01-01T00:00:02.000Z","custom":1}`
	if read != want {
		t.Fatalf("read form\n got %s\nwant %s", read, want)
	}
	line := string(RenderLogLine(r))
	want = `{"asctime":1000,"level":"INFO","msg":"hello","metric":"m","variant":"v",` +
		`"model_event":false,"@timestamp":"1970-01-01T00:00:02.000Z","custom":1}` + "\n"
	if line != want {
		t.Fatalf("download form\n got %s\nwant %s", line, want)
	}
}
