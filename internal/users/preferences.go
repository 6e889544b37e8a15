package users

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strings"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// Preferences are a user's web app settings: one JSON object per user.
// users.set_preferences replaces the top-level keys it sends and keeps the
// others, as the reference does (the app sends one key at a time).

// Preferences reads the caller's preferences ({} when none were set).
func Preferences(ctx context.Context, env *domain.Env, company, user string) (map[string]any, error) {
	text, err := env.DB.UserPreferences(ctx, env.DB.Read(), company, user, false)
	if err != nil {
		return nil, domain.NotFound(err, apierr.InvalidUserID(user))
	}
	return decodePreferences(text)
}

// SetPreferences applies changes to the caller's preferences. The answer
// counts 1 and carries the new preferences when they changed.
func SetPreferences(ctx context.Context, env *domain.Env, company, user string, changes map[string]any) (*domain.Update, error) {
	if err := CheckPreferenceKeys(changes); err != nil {
		return nil, err
	}
	up := &domain.Update{Fields: map[string]any{}}
	err := env.DB.Tx(ctx, func(q store.Querier) error {
		text, err := env.DB.UserPreferences(ctx, q, company, user, true)
		if err != nil {
			return domain.NotFound(err, apierr.InvalidUserID(user))
		}
		prefs, err := decodePreferences(text)
		if err != nil {
			return err
		}
		before, err := json.Marshal(prefs)
		if err != nil {
			return err
		}
		if err := MergePreferences(prefs, changes); err != nil {
			return err
		}
		after, err := json.Marshal(prefs)
		if err != nil {
			return err
		}
		if bytes.Equal(before, after) {
			return nil
		}
		if err := env.DB.SetUserPreferences(ctx, q, company, user, string(after)); err != nil {
			return err
		}
		up.Updated, up.Fields["preferences"] = 1, prefs
		return nil
	})
	if err != nil {
		return nil, err
	}
	return up, nil
}

// MergePreferences sets each top-level key of changes in prefs, replacing
// what was there. A top-level key with dots is a path (API 2.33 on): its
// value goes into the nested objects it names, which are created as
// needed; a path through a value that is not an object is refused.
func MergePreferences(prefs, changes map[string]any) error {
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts := strings.Split(k, ".")
		node := prefs
		for _, p := range parts[:len(parts)-1] {
			child, ok := node[p]
			if !ok || child == nil {
				m := map[string]any{}
				node[p] = m
				node = m
				continue
			}
			m, ok := child.(map[string]any)
			if !ok {
				return apierr.InvalidPreferencesUpdate(k)
			}
			node = m
		}
		node[parts[len(parts)-1]] = changes[k]
	}
	return nil
}

// CheckPreferenceKeys refuses keys that start with '$' and keys below the
// top level that hold a '.': stored documents of the reference could not
// keep them (the web app escapes dots in its keys itself). A top-level key
// may hold dots (a path, see MergePreferences) but no empty part and no
// part starting with '$'.
func CheckPreferenceKeys(changes map[string]any) error {
	for k, child := range changes {
		for _, p := range strings.Split(k, ".") {
			if p == "" || strings.HasPrefix(p, "$") {
				return apierr.FieldsValue("preference key %q may not start with '$' or hold an empty part between dots", k).With("key", k)
			}
		}
		if err := checkNestedKeys(child); err != nil {
			return err
		}
	}
	return nil
}

func checkNestedKeys(v any) error {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			if strings.HasPrefix(k, "$") || strings.Contains(k, ".") {
				return apierr.FieldsValue("preference key %q may not start with '$' or contain '.'", k).With("key", k)
			}
			if err := checkNestedKeys(child); err != nil {
				return err
			}
		}
	case []any:
		for _, child := range x {
			if err := checkNestedKeys(child); err != nil {
				return err
			}
		}
	}
	return nil
}

// decodePreferences parses stored preferences, keeping numbers as written.
func decodePreferences(text string) (map[string]any, error) {
	prefs := map[string]any{}
	if strings.TrimSpace(text) == "" {
		return prefs, nil
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&prefs); err != nil {
		return nil, err
	}
	if prefs == nil {
		prefs = map[string]any{}
	}
	return prefs, nil
}
