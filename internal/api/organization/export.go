package organization

import (
	"context"
	"encoding/json"
	"io"
	"slices"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/export"
	"github.com/trove-ml/trove/internal/rpc"
)

// prepareDownloadRequest is a get_all_ex query of tasks or models plus
// the columns to export; the rest of the body is the query, read by the
// domain.
type prepareDownloadRequest struct {
	EntityType    string          `json:"entity_type" required:"true"`
	OnlyFields    []string        `json:"only_fields" required:"true"`
	FieldMappings json.RawMessage `json:"field_mappings" required:"true"`
	AllowPublic   *bool           `json:"allow_public"`
	SearchHidden  bool            `json:"search_hidden"`
}

func (r *prepareDownloadRequest) Validate() error {
	if !slices.Contains(export.EntityTypes, r.EntityType) {
		return apierr.Validation("entity_type", "must be one of %v", export.EntityTypes)
	}
	if len(r.OnlyFields) == 0 {
		return apierr.Validation("only_fields", "at least one field is required")
	}
	_, err := export.ParseColumns(r.FieldMappings)
	return err
}

type prepareDownloadResponse struct {
	PrepareID string `json:"prepare_id"`
}

func (s *service) prepareDownload(ctx context.Context, c *rpc.Call, req *prepareDownloadRequest) (*prepareDownloadResponse, error) {
	id, err := export.Prepare(ctx, &s.d.Env, c.Company(), req.EntityType, c.Body)
	if err != nil {
		return nil, err
	}
	return &prepareDownloadResponse{PrepareID: id}, nil
}

type downloadRequest struct {
	// PrepareID comes from the body or, as the web app sends it, the
	// query string.
	PrepareID string `json:"prepare_id" required:"true"`
}

// download answers the prepared table as a CSV file, written as it is read.
func (s *service) download(ctx context.Context, c *rpc.Call, req *downloadRequest) (*struct{}, error) {
	f, err := export.Download(ctx, &s.d.Env, c.Company(), req.PrepareID)
	if err != nil {
		return nil, err
	}
	c.SetRaw(&rpc.RawResponse{ContentType: "text/csv", Filename: f.Name, Stream: func(w io.Writer) error {
		return f.Write(ctx, w)
	}})
	return nil, nil
}
