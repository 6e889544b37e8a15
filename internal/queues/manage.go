package queues

import (
	"context"
	"errors"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// MinNameLength is the shortest queue name (after trimming).
const MinNameLength = 3

// CheckName trims a queue name and refuses one shorter than MinNameLength.
func CheckName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if len([]rune(name)) < MinNameLength {
		return "", apierr.DataValidation("queue name must be at least %d characters: name=%s", MinNameLength, name)
	}
	return name, nil
}

// duplicateName turns the store's unique-name failure into 400/1000.
func duplicateName(err error, name string) error {
	if errors.Is(err, store.ErrDuplicate) {
		return apierr.NotUnique("Queue with the same name already exists: name=%s", name)
	}
	return err
}

// New is a queue to create.
type New struct {
	Name, DisplayName string
	Tags, SystemTags  []string
	Metadata          map[string]*store.MetadataItem
}

// Create adds a queue to the company and returns its id; the name must be
// unique in the company.
func Create(ctx context.Context, d *domain.Env, company string, n New) (string, error) {
	name, err := CheckName(n.Name)
	if err != nil {
		return "", err
	}
	now := d.Time()
	qu := &store.Queue{ID: ids.New(), Company: company, Name: name, DisplayName: n.DisplayName, Created: now, LastUpdate: now,
		Tags: domain.SortedTags(n.Tags), SystemTags: domain.SortedTags(n.SystemTags), Metadata: n.Metadata}
	err = d.DB.Tx(ctx, func(q store.Querier) error {
		return duplicateName(d.DB.Queues().Insert(ctx, q, qu), name)
	})
	if err != nil {
		return "", err
	}
	return qu.ID, nil
}

// Changes are the fields of a queue update (nil: unchanged).
type Changes struct {
	Name, DisplayName *string
	Tags, SystemTags  *[]string
	// Metadata replaces the queue's metadata when SetMetadata.
	Metadata    map[string]*store.MetadataItem
	SetMetadata bool
}

// Update changes a queue of the company. Nothing to change updates nothing
// (last_update stays).
func Update(ctx context.Context, d *domain.Env, company, id string, c Changes) (*domain.Update, error) {
	fields := map[string]any{}
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		qu, err := GetForUpdate(ctx, d.DB, q, company, id)
		if err != nil {
			return err
		}
		if c.Name != nil {
			if qu.Name, err = CheckName(*c.Name); err != nil {
				return err
			}
			fields["name"] = qu.Name
		}
		if c.DisplayName != nil {
			qu.DisplayName = *c.DisplayName
			fields["display_name"] = qu.DisplayName
		}
		if c.Tags != nil {
			qu.Tags = domain.SortedTags(*c.Tags)
			fields["tags"] = qu.Tags
		}
		if c.SystemTags != nil {
			qu.SystemTags = domain.SortedTags(*c.SystemTags)
			fields["system_tags"] = qu.SystemTags
		}
		if c.SetMetadata {
			qu.Metadata = c.Metadata
			fields["metadata"] = qu.Metadata
		}
		if len(fields) == 0 {
			return nil
		}
		qu.LastUpdate = d.Time()
		fields["last_update"] = qu.LastUpdate
		return duplicateName(d.DB.Queues().Update(ctx, q, qu), qu.Name)
	})
	if err != nil {
		return nil, err
	}
	res := &domain.Update{Fields: fields}
	if len(fields) > 0 {
		res.Updated = 1
	}
	return res, nil
}
