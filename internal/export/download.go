package export

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/models"
	"github.com/trove-ml/trove/internal/query"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
)

// The bounds of a download (the reference's defaults): how long a
// prepared download is kept, how many rows a file has at most and how
// many are read at once, how long writing a file may take, and how much
// of the project name the file name carries.
const (
	PreparedFor     = 5 * time.Minute
	MaxRows         = 50000
	PageRows        = 500
	MaxWriteTime    = 10 * time.Minute
	ProjectNameSize = 60
)

// EntityTypes are the tables that can be exported.
var EntityTypes = []string{"task", "model"}

// controlKeys are the members of a prepare request that are not part of
// the list query, or that paging replaces.
var controlKeys = []string{"entity_type", "field_mappings", "scroll_id", "size", "refresh_scroll", "page", "page_size"}

// Prepare checks a download request (the list query of the table plus
// entity_type and field_mappings), runs its query for one row so that a
// bad query fails now, and keeps it for PreparedFor. It returns the id
// to fetch the file with.
func Prepare(ctx context.Context, env *domain.Env, company, entityType string, body []byte) (string, error) {
	var in struct {
		FieldMappings json.RawMessage `json:"field_mappings"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return "", apierr.MalformedJSON(err.Error())
	}
	if _, err := ParseColumns(in.FieldMappings); err != nil {
		return "", err
	}
	if _, err := page(ctx, env, company, entityType, body, 0, 1); err != nil {
		return "", err
	}
	p := &store.PreparedDownload{ID: ids.New(), Company: company, EntityType: entityType, Body: body,
		Expires: env.Now().Add(PreparedFor).UnixMilli()}
	if err := env.DB.SavePreparedDownload(ctx, p, env.Now().UnixMilli()); err != nil {
		return "", err
	}
	return p.ID, nil
}

// File is a download ready to be written.
type File struct {
	Name string
	// Write writes the CSV: a UTF-8 byte order mark, the header and the
	// rows, read PageRows at a time, at most MaxRows, within MaxWriteTime.
	Write func(ctx context.Context, w io.Writer) error
}

// Download opens a prepared download of the company; an unknown or
// expired id is 400/10.
func Download(ctx context.Context, env *domain.Env, company, id string) (*File, error) {
	p, ok, err := env.DB.LivePreparedDownload(ctx, id, company, env.Now().UnixMilli())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, apierr.InvalidID("unknown prepared download", "prepare_id", id)
	}
	var in struct {
		FieldMappings json.RawMessage `json:"field_mappings"`
		Project       json.RawMessage `json:"project"`
	}
	if err := json.Unmarshal(p.Body, &in); err != nil {
		return nil, err
	}
	cols, err := ParseColumns(in.FieldMappings)
	if err != nil {
		return nil, err
	}
	name, err := fileName(ctx, env, company, p.EntityType, in.Project)
	if err != nil {
		return nil, err
	}
	write := func(ctx context.Context, w io.Writer) error {
		ctx, cancel := context.WithTimeout(ctx, MaxWriteTime)
		defer cancel()
		return writeFile(ctx, env, company, p, cols, w)
	}
	return &File{Name: name, Write: write}, nil
}

func writeFile(ctx context.Context, env *domain.Env, company string, p *store.PreparedDownload, cols []Column, w io.Writer) error {
	if _, err := io.WriteString(w, "\ufeff"); err != nil {
		return err
	}
	header := make([]string, len(cols))
	for i, c := range cols {
		// Column names come from the web app's table, which names
		// columns after metrics and parameters any writer chooses.
		header[i] = asText(c.Name)
	}
	if err := writeRow(w, header); err != nil {
		return err
	}
	cells := make([]string, len(cols))
	for n := 0; n < MaxRows; n += PageRows {
		items, err := page(ctx, env, company, p.EntityType, p.Body, n/PageRows, min(PageRows, MaxRows-n))
		if err != nil {
			return err
		}
		for _, it := range items {
			for i := range cols {
				cells[i] = cols[i].Cell(it) // text escaped by Cell (asText)
			}
			if err := writeRow(w, cells); err != nil {
				return err
			}
		}
		if len(items) < PageRows {
			return nil
		}
	}
	return nil
}

// page runs the download's list query for one page of rows.
func page(ctx context.Context, env *domain.Env, company, entityType string, body []byte, number, size int) ([]map[string]any, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(body, &members); err != nil {
		return nil, apierr.MalformedJSON(err.Error())
	}
	for _, k := range controlKeys {
		delete(members, k)
	}
	q, err := json.Marshal(members)
	if err != nil {
		return nil, err
	}
	var req struct {
		query.Request
		Project            query.StringList `json:"project"`
		IncludeSubprojects bool             `json:"include_subprojects"`
	}
	if err := json.Unmarshal(q, &req); err != nil {
		return nil, apierr.ValidationMsg("%s", err.Error())
	}
	req.Page = &number
	req.PageSize = json.RawMessage(strconv.Itoa(size))
	allowPublic := req.AllowPublic == nil || *req.AllowPublic
	var res *query.Result
	switch entityType {
	case "task":
		res, err = tasks.List(ctx, env, tasks.ListInput{Company: company, Request: &req.Request, Body: q,
			Projects: req.Project, IncludeSubprojects: req.IncludeSubprojects, SearchHidden: req.SearchHidden,
			Ex: true, AllowPublic: allowPublic})
	case "model":
		res, err = models.List(ctx, env, models.ListInput{Company: company, Request: &req.Request, Body: q,
			IncludeSubprojects: req.IncludeSubprojects, Ex: true, AllowPublic: allowPublic})
	default:
		return nil, apierr.Validation("entity_type", "must be one of %s", strings.Join(EntityTypes, ", "))
	}
	if err != nil {
		return nil, err
	}
	return res.Items, nil
}

// fileName is clearml-<project>-tasks.csv (or -models.csv): the project
// part only when the query names one project, "root" for no project.
func fileName(ctx context.Context, env *domain.Env, company, entityType string, project json.RawMessage) (string, error) {
	parts := []string{"clearml"}
	var list []*string
	var one *string
	if json.Unmarshal(project, &list) == nil && len(list) == 1 {
		one = list[0]
		if one == nil {
			parts = append(parts, "root")
		}
	} else if json.Unmarshal(project, &one) != nil {
		one = nil
	}
	if one != nil && *one != "" {
		p, err := env.DB.Projects().Get(ctx, env.DB.Read(), *one, domain.Visible(company)...)
		if err == nil {
			parts = append(parts, truncate(p.Basename, ProjectNameSize))
		}
	}
	return strings.Join(append(parts, entityType+"s.csv"), "-"), nil
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}
