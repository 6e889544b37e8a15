package mlflow

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/ids"
	"github.com/trove-ml/trove/internal/store"
)

// The records of evaluation datasets: upserted by their inputs (the same
// inputs update the record they made), read in pages. A record's values
// are JSON kept as given: data, never run.

// EvalRecordIDPrefix starts a record's id. Its bounds are in limits.go.
const EvalRecordIDPrefix = "dr-"

// RecordIn is one record of an upsert.
type RecordIn struct {
	Inputs       json.RawMessage `json:"inputs"`
	Expectations json.RawMessage `json:"expectations"`
	Tags         json.RawMessage `json:"tags"`
	Source       json.RawMessage `json:"source"`
	SourceID     string          `json:"source_id"`
	SourceType   string          `json:"source_type"`
}

// ParseRecords reads an upsert's records: a JSON list of objects, each
// with an object of inputs, at most MaxRecordsPerUpsert of them.
func ParseRecords(text string) ([]RecordIn, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, apierr.MLflowInvalidParameter("Invalid value for parameter 'records': expected a JSON list of records")
	}
	if len(raw) > MaxRecordsPerUpsert {
		return nil, apierr.MLflowInvalidParameter("Parameter 'records' holds %d records, the limit per call is %d", len(raw), MaxRecordsPerUpsert)
	}
	out := make([]RecordIn, 0, len(raw))
	for i, r := range raw {
		if len(r) > MaxRecordBytes {
			return nil, apierr.MLflowInvalidParameter("Record %d is %d bytes, the limit is %d", i, len(r), MaxRecordBytes)
		}
		var in RecordIn
		if err := json.Unmarshal(r, &in); err != nil {
			return nil, apierr.MLflowInvalidParameter("Record %d is not a JSON object with string source_id and source_type", i)
		}
		for name, v := range map[string]json.RawMessage{"inputs": in.Inputs, "expectations": in.Expectations, "tags": in.Tags} {
			if isNull(v) {
				continue
			}
			if !isObject(v) {
				return nil, apierr.MLflowInvalidParameter("Record %d: '%s' must be a JSON object", i, name)
			}
		}
		if isNull(in.Inputs) {
			in.Inputs = json.RawMessage(`{}`)
		}
		out = append(out, in)
	}
	return out, nil
}

func isNull(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) == 0 || string(v) == "null"
}

func isObject(v json.RawMessage) bool {
	v = bytes.TrimSpace(v)
	return len(v) > 0 && v[0] == '{'
}

// inputsHash fingerprints inputs whatever their key order: the object is
// decoded and encoded again (Go sorts map keys).
func inputsHash(inputs json.RawMessage) (string, error) {
	var v any
	if err := json.Unmarshal(inputs, &v); err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// mergeObjects lays the members of next over those of base (both JSON
// objects or null).
func mergeObjects(base, next json.RawMessage) (json.RawMessage, error) {
	if isNull(next) {
		return base, nil
	}
	if isNull(base) {
		return next, nil
	}
	m := map[string]json.RawMessage{}
	if err := json.Unmarshal(base, &m); err != nil {
		return nil, err
	}
	var add map[string]json.RawMessage
	if err := json.Unmarshal(next, &add); err != nil {
		return nil, err
	}
	for k, v := range add {
		m[k] = v
	}
	return json.Marshal(m)
}

// UpsertResult counts an upsert's records.
type UpsertResult struct{ Inserted, Updated int }

// UpsertEvalRecords adds records to dataset id; a record whose inputs
// are already there updates that one (its expectations and tags merged,
// its source replaced when given).
func UpsertEvalRecords(ctx context.Context, env *domain.Env, company, user, id string, records []RecordIn, updatedBy string) (UpsertResult, error) {
	var res UpsertResult
	_, err := editEvalDataset(ctx, env, company, user, id, func(q store.Querier, d *store.EvalDataset) error {
		now := env.Time().Millis()
		for _, in := range records {
			hash, err := inputsHash(in.Inputs)
			if err != nil {
				return apierr.MLflowInvalidParameter("Invalid record inputs: %v", err)
			}
			by := updatedBy
			var tags map[string]any
			if !isNull(in.Tags) && json.Unmarshal(in.Tags, &tags) == nil {
				if u, ok := tags[TagUser].(string); ok && u != "" {
					by = u
				}
			}
			r, err := env.DB.EvalRecordByInputs(ctx, q, company, id, hash)
			switch {
			case errors.Is(err, store.ErrNotFound):
				r = &store.EvalRecord{ID: EvalRecordIDPrefix + ids.New(), Inputs: in.Inputs, Expectations: in.Expectations,
					Tags: in.Tags, Source: in.Source, SourceID: in.SourceID, SourceType: in.SourceType,
					Created: now, LastUpdate: now, CreatedBy: by, LastUpdatedBy: by}
				res.Inserted++
				err = env.DB.InsertEvalRecord(ctx, q, company, id, hash, r)
			case err != nil:
				return err
			default:
				if r.Expectations, err = mergeObjects(r.Expectations, in.Expectations); err != nil {
					return err
				}
				if r.Tags, err = mergeObjects(r.Tags, in.Tags); err != nil {
					return err
				}
				if !isNull(in.Source) {
					r.Source, r.SourceID, r.SourceType = in.Source, in.SourceID, in.SourceType
				}
				r.LastUpdate = now
				if by != "" {
					r.LastUpdatedBy = by
				}
				res.Updated++
				err = env.DB.UpdateEvalRecord(ctx, q, company, id, r)
			}
			if err != nil {
				return err
			}
			if by != "" {
				d.LastUpdatedBy = by
			}
		}
		n, err := env.DB.CountEvalRecords(ctx, q, company, id)
		if err != nil {
			return err
		}
		d.Schema = recordSchema(d.Schema, records)
		d.Profile = `{"num_records": ` + strconv.Itoa(n) + `}`
		d.Digest = datasetDigest(d.Name, now)
		return nil
	})
	return res, err
}

// recordSchema notes the JSON type of every input and expectation key
// seen: {"inputs": {key: type}, "expectations": {key: type}}, merged
// with the schema before.
func recordSchema(before string, records []RecordIn) string {
	schema := map[string]map[string]string{"inputs": {}, "expectations": {}}
	if before != "" {
		_ = json.Unmarshal([]byte(before), &schema)
	}
	for _, r := range records {
		for part, raw := range map[string]json.RawMessage{"inputs": r.Inputs, "expectations": r.Expectations} {
			var m map[string]json.RawMessage
			if isNull(raw) || json.Unmarshal(raw, &m) != nil {
				continue
			}
			if schema[part] == nil {
				schema[part] = map[string]string{}
			}
			for k, v := range m {
				schema[part][k] = jsonType(v)
			}
		}
	}
	b, _ := json.Marshal(schema)
	return string(b)
}

func jsonType(v json.RawMessage) string {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return "null"
	}
	switch v[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// EvalRecords reads a page of dataset id's records (max 1-1000).
func EvalRecords(ctx context.Context, env *domain.Env, company, id string, maxResults int, token string) ([]*store.EvalRecord, string, error) {
	if maxResults == 0 {
		maxResults = MaxRecordResults
	}
	if maxResults < 0 || maxResults > MaxRecordResults {
		return nil, "", apierr.MLflowInvalidParameter("Invalid value %d for parameter 'max_results' supplied. It must be between 1 and %d", maxResults, MaxRecordResults)
	}
	offset, err := ParsePageToken(token)
	if err != nil {
		return nil, "", err
	}
	if _, err := loadEvalDataset(ctx, env, env.DB.Read(), company, id, false); err != nil {
		return nil, "", err
	}
	list, err := env.DB.EvalRecords(ctx, company, id, offset, maxResults+1)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(list) > maxResults {
		list, next = list[:maxResults], PageToken(offset+maxResults)
	}
	return list, next, nil
}
