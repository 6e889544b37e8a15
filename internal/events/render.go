package events

import (
	"github.com/trove-ml/trove/internal/store/eventstore"
)

// Rendering turns stored rows back into the events clients sent: the
// fields Trove interprets, in the reference's order, then the members it
// kept as sent.

// RenderScalar renders a scalar point of a series.
func RenderScalar(sr *eventstore.Series, p *eventstore.ScalarPoint) []byte {
	w := newObj(200)
	w.Int("timestamp", p.TS)
	w.Str("type", string(Scalar))
	w.Str("task", sr.Task)
	if p.Iter != NoIter {
		w.Int("iter", p.Iter)
	}
	w.Str("metric", sr.Metric)
	w.Str("variant", sr.Variant)
	w.Float("value", p.Value)
	if p.Worker != nil {
		w.Str("worker", *p.Worker)
	} else {
		w.Str("worker", sr.Worker)
	}
	w.Bool("model_event", sr.ModelEvent)
	w.Str("@timestamp", WriteTime(p.WTS))
	if p.Extra != nil {
		w.Members(*p.Extra)
	}
	return w.Done()
}

// RenderLog renders a log event.
func RenderLog(r *eventstore.LogRow) []byte { return renderLog(r, false) }

// RenderLogLine renders a log event for a JSON-lines download: without
// type and task, its time named asctime.
func RenderLogLine(r *eventstore.LogRow) []byte { return append(renderLog(r, true), '\n') }

// renderLog is the one log renderer: events reads name the time
// "timestamp" and carry type and task; downloads (line) do not.
func renderLog(r *eventstore.LogRow, line bool) []byte {
	w := newObj(200)
	if line {
		w.Int("asctime", r.TS)
	} else {
		w.Int("timestamp", r.TS)
		w.Str("type", string(Log))
		w.Str("task", r.Task)
	}
	if r.Iter != nil {
		w.Int("iter", *r.Iter)
	}
	if r.Level != nil {
		w.Str("level", *r.Level)
	}
	if r.Worker != nil {
		w.Str("worker", *r.Worker)
	}
	if r.Msg != nil {
		w.Str("msg", *r.Msg)
	}
	w.Str("metric", r.Metric)
	w.Str("variant", r.Variant)
	w.Bool("model_event", false)
	w.Str("@timestamp", WriteTime(r.WTS))
	if r.Extra != nil {
		w.Members(*r.Extra)
	}
	return w.Done()
}

// RenderDoc renders a plot, debug image or vector event (with its plot_str).
func RenderDoc(d *eventstore.DocRow) ([]byte, error) {
	if d.Plot == nil && d.PlotZ == nil {
		return d.Doc, nil
	}
	plot, err := UnpackPlot(d.Plot, d.PlotZ)
	if err != nil {
		return nil, err
	}
	w := &objWriter{b: make([]byte, 0, len(d.Doc)+len(plot)+16)}
	w.b = append(w.b, d.Doc[:len(d.Doc)-1]...)
	w.Str("plot_str", plot)
	return w.Done(), nil
}
