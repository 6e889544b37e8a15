package mlflow

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/files"
	"github.com/trove-ml/trove/internal/mlflow"
	"github.com/trove-ml/trove/internal/store"
)

// traceDataFile is the name of a trace's spans among its artifacts.
const traceDataFile = "traces.json"

// dispositionWriter names the download traces.json, as MLflow's client
// expects, whatever the file server would call it.
type dispositionWriter struct{ http.ResponseWriter }

func (d dispositionWriter) WriteHeader(code int) {
	if code == http.StatusOK || code == http.StatusPartialContent {
		d.Header().Set("Content-Disposition", "attachment; filename="+traceDataFile)
	}
	d.ResponseWriter.WriteHeader(code)
}

// getTraceArtifact answers GET get-trace-artifact?request_id=: a trace's
// spans as MLflow's traces.json ({"spans": [...]}). The file the client
// uploaded under the trace's artifact location comes first, as MLflow's
// server answers it (a 3.4 client both uploads it and exports its spans
// by OTLP, and the two spell attributes differently); spans that came by
// OTLP alone are sent from the store. Always an attachment: the spans
// are the caller's data, never run here.
func (s *Server) getTraceArtifact(w http.ResponseWriter, r *http.Request, who *auth.Identity) error {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		return methodRefused(r, "GET")
	}
	id := r.URL.Query().Get("request_id")
	if id == "" {
		id = r.URL.Query().Get("trace_id")
	}
	if id == "" {
		return missing("request_id")
	}
	t, err := mlflow.GetTrace(r.Context(), s.env, who.CompanyID, id)
	if err != nil {
		return err
	}
	dir := artifactDir(t.Doc.Tags[mlflow.TraceTagArtifactLocation])
	if dir != "" && s.files != nil {
		// a limit of 0 reads nothing: is the file there (ErrTooBig: yes)
		_, err := s.files.ReadStored(r.Context(), artifactKey(who.CompanyID, dir+"/"+traceDataFile), 0)
		switch {
		case err == nil, errors.Is(err, files.ErrTooBig):
			return s.downloadArtifact(dispositionWriter{w}, r, who, dir+"/"+traceDataFile)
		case !errors.Is(err, files.ErrNotFound):
			return err
		}
	}
	spans, err := s.env.DB.TraceSpans(r.Context(), who.CompanyID, t.ID, mlflow.MaxTraceSpansRead)
	if err != nil {
		return err
	}
	if len(spans) == 0 {
		return apierr.MLflowInvalidParameter("The spans of trace '%s' are not stored by this server", t.ID)
	}
	docs := make([]json.RawMessage, 0, len(spans))
	for _, sp := range spans {
		docs = append(docs, json.RawMessage(sp.Doc))
	}
	body, err := json.Marshal(map[string]any{"spans": docs})
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Disposition", "attachment; filename="+traceDataFile)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
	return nil
}

// TraceSpans reads a trace's spans (MLflow's span dictionaries, as
// stored): those logged by OTLP, else the traces.json the client
// uploaded. No spans at all is an empty list, not an error.
func TraceSpans(ctx context.Context, db *store.DB, fs *files.Service, company string, t *mlflow.Trace) ([]json.RawMessage, error) {
	stored, err := db.TraceSpans(ctx, company, t.ID, mlflow.MaxTraceSpansRead)
	if err != nil {
		return nil, err
	}
	out := []json.RawMessage{}
	for _, sp := range stored {
		out = append(out, json.RawMessage(sp.Doc))
	}
	dir := artifactDir(t.Doc.Tags[mlflow.TraceTagArtifactLocation])
	if len(out) > 0 || dir == "" || fs == nil {
		return out, nil
	}
	raw, err := fs.ReadStored(ctx, artifactKey(company, dir+"/"+traceDataFile), mlflow.MaxTraceDataBytes)
	if errors.Is(err, files.ErrNotFound) {
		return out, nil
	}
	if errors.Is(err, files.ErrTooBig) {
		return nil, apierr.MLflowInvalidParameter("The spans of trace '%s' are larger than %d bytes", t.ID, mlflow.MaxTraceDataBytes)
	}
	if err != nil {
		return nil, err
	}
	var data struct {
		Spans []json.RawMessage `json:"spans"`
	}
	if json.Unmarshal(raw, &data) != nil {
		return nil, apierr.MLflowInvalidParameter("The spans of trace '%s' are not MLflow's traces.json", t.ID)
	}
	if data.Spans == nil {
		data.Spans = out
	}
	return data.Spans, nil
}
