package models_test

import (
	"context"
	"testing"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/domain/domaintest"
	"github.com/trove-ml/trove/internal/models"
	"github.com/trove-ml/trove/internal/store"
)

var me = models.Actor{Company: "acme", User: "u1"}

func create(t *testing.T, env *domain.Env, name string) string {
	t.Helper()
	id, err := models.Create(context.Background(), env, models.CreateInput{Actor: me, Name: name, URI: "file:///w/" + name})
	if err != nil {
		t.Fatalf("create %s: %v", name, err)
	}
	return id
}

func load(t *testing.T, env *domain.Env, id string) *store.Model {
	t.Helper()
	m, err := env.DB.Models().Get(context.Background(), env.DB.Read(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCreateRefusesShortNamesAndUnknownProjects(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		_, err := models.Create(ctx, env, models.CreateInput{Actor: me, Name: " ab ", URI: "x"})
		domaintest.WantError(t, err, 400, 800)
		_, err = models.Create(ctx, env, models.CreateInput{Actor: me, Name: "good name", URI: "x", Project: "nope"})
		domaintest.WantError(t, err, 400, 12)
		m := load(t, env, create(t, env, "weights"))
		if m.Tags == nil || m.Metadata == nil || m.LastChangedBy != me.User {
			t.Fatalf("created model not normalised: %+v", m)
		}
	})
}

func TestUpdateTagsCountsEachListAndIsAllOrNothing(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		a, b := create(t, env, "model a"), create(t, env, "model b")
		n, err := models.UpdateTags(ctx, env, me, []string{a, b, a}, []string{"x", "y"}, []string{"y"})
		if err != nil || n != 4 {
			t.Fatalf("updated %d, %v", n, err)
		}
		if tags := load(t, env, a).Tags; len(tags) != 1 || tags[0] != "x" {
			t.Fatalf("tags %v", tags)
		}
		_, err = models.UpdateTags(ctx, env, me, []string{a, "nope"}, []string{"z"}, nil)
		domaintest.WantError(t, err, 400, 201)
		if tags := load(t, env, a).Tags; len(tags) != 1 {
			t.Fatalf("a failed call wrote tags: %v", tags)
		}
	})
}

func TestArchiveAndMetadata(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		id := create(t, env, "archived model")
		if err := models.SetArchived(ctx, env, me, id, true); err != nil {
			t.Fatal(err)
		}
		if !domain.HasTag(load(t, env, id).SystemTags, store.ArchivedTag) {
			t.Fatal("not archived")
		}
		if err := models.SetArchived(ctx, env, me, id, false); err != nil {
			t.Fatal(err)
		}
		if domain.HasTag(load(t, env, id).SystemTags, store.ArchivedTag) {
			t.Fatal("still archived")
		}
		items := map[string]*store.MetadataItem{"k": {Key: "k", Type: "str", Value: "v"}}
		if err := models.AddMetadata(ctx, env, me, id, items, false); err != nil {
			t.Fatal(err)
		}
		if load(t, env, id).Metadata["k"] == nil {
			t.Fatal("metadata not added")
		}
		if err := models.DeleteMetadata(ctx, env, me, id, []string{"k", "absent"}); err != nil {
			t.Fatal(err)
		}
		if len(load(t, env, id).Metadata) != 0 {
			t.Fatal("metadata not deleted")
		}
		domaintest.WantError(t, models.SetArchived(ctx, env, models.Actor{Company: "other", User: "x"}, id, true), 400, 201)
	})
}

func TestMoveCreatesTheNamedProject(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		id := create(t, env, "moving model")
		dest, err := models.Move(ctx, env, me, []string{id}, "", "models/here")
		if err != nil || dest == "" || load(t, env, id).Project != dest {
			t.Fatalf("moved to %q: %v", dest, err)
		}
		dest, err = models.Move(ctx, env, me, []string{id}, "", "")
		if err != nil || dest != "" || load(t, env, id).Project != "" {
			t.Fatalf("moved to root %q: %v", dest, err)
		}
		_, err = models.Move(ctx, env, me, []string{id}, "nope", "")
		domaintest.WantError(t, err, 400, 401)
	})
}

func TestSetPublicTouchesTheModel(t *testing.T) {
	domaintest.EachEnv(t, func(t *testing.T, env *domain.Env) {
		ctx := context.Background()
		id := create(t, env, "public model")
		other := models.Actor{Company: me.Company, User: "u2"}
		if n, err := models.SetPublic(ctx, env, other, []string{id}, true); err != nil || n != 1 {
			t.Fatalf("make public: %d, %v", n, err)
		}
		m := load(t, env, id)
		if m.Company != "" || m.CompanyOrigin != me.Company || m.LastChangedBy != "u2" {
			t.Fatalf("public model %+v", m)
		}
		_, err := models.SetPublic(ctx, env, me, []string{"nope", id}, true)
		domaintest.WantError(t, err, 400, 201)
	})
}
