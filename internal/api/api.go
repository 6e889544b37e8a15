// Package api holds what every service package shares: the dependencies a
// handler gets, the common answer shapes (UpdateResult, BatchResult), and
// the batch runner.
package api

import (
	"context"
	"log/slog"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/auth"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/events"
	"github.com/trove-ml/trove/internal/files"
)

// Deps are the dependencies of every service.
type Deps struct {
	// Env is what domain functions get: the store, the clock (tests fix
	// it) and the stored-file remover.
	domain.Env
	Auth *auth.Service
	Log  *slog.Logger
	// FilesURL is the public base URL of the file server.
	FilesURL string
	// FileServer is the built-in file server.
	FileServer *files.Service
	// PublicConfig is the server's configuration without its secrets
	// (server.config).
	PublicConfig map[string]any
	// Scrolls signs and opens the scroll ids of event reads; its key is
	// loaded by a start-up job of internal/events (events.Jobs).
	Scrolls *events.Scrolls
	// EventQueueBytes bounds the event batches waiting to be written
	// (events.Ingester.MaxPending; 0 = its default).
	EventQueueBytes int64
	// Ingester writes reported events; the events service and MLflow's
	// log-batch share it, so their batches share group-commit
	// transactions (nil: each builds its own).
	Ingester *events.Ingester
	// SecureCookies marks the session cookie Secure on every response:
	// the public host is https://, clients reach Trove over TLS even when
	// a proxy in front speaks plain HTTP to it.
	SecureCookies bool
}

// UpdateResult is the answer of most single-record updates.
type UpdateResult struct {
	Updated int            `json:"updated"`
	Fields  map[string]any `json:"fields"`
}

// Updated converts a domain update into its answer.
func Updated(u *domain.Update) *UpdateResult {
	if u == nil {
		return &UpdateResult{Fields: map[string]any{}}
	}
	return &UpdateResult{Updated: u.Updated, Fields: u.Fields}
}

// BatchFailure is one failed id of a _many call.
type BatchFailure struct {
	ID    string     `json:"id"`
	Error BatchError `json:"error"`
}

// BatchError is the error of a failed id.
type BatchError struct {
	Codes []int          `json:"codes"`
	Msg   string         `json:"msg"`
	Data  map[string]any `json:"data"`
}

// BatchResult is the answer of every _many call.
type BatchResult struct {
	Succeeded []map[string]any `json:"succeeded"`
	Failed    []BatchFailure   `json:"failed"`
}

// RunBatch applies fn to each id; one failing id never fails the call.
// fn returns the extra fields of a succeeded item (id is added).
func RunBatch(ctx context.Context, ids []string, fn func(ctx context.Context, id string) (map[string]any, error)) (*BatchResult, error) {
	if len(ids) == 0 {
		return nil, apierr.Validation("ids", "at least one id is required")
	}
	res := &BatchResult{Succeeded: []map[string]any{}, Failed: []BatchFailure{}}
	for _, id := range ids {
		item, err := fn(ctx, id)
		if err != nil {
			ae := apierr.As(err)
			if ae == nil || ae.Code >= 500 {
				return nil, err
			}
			data := ae.Data
			if data == nil {
				data = map[string]any{}
			}
			res.Failed = append(res.Failed, BatchFailure{ID: id, Error: BatchError{
				Codes: []int{ae.Code, ae.Subcode}, Msg: ae.Message(), Data: data}})
			continue
		}
		if item == nil {
			item = map[string]any{}
		}
		item["id"] = id
		res.Succeeded = append(res.Succeeded, item)
	}
	return res, nil
}
