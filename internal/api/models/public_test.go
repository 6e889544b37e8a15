package models_test

import (
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func TestPublicModels(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		other := e.Login(t, otherUser.AccessKey, otherUser.SecretKey)
		mine := mkModel(t, e, "shared model", obj{"framework": "ONNX"})
		theirs := e.CallAs(t, other, "models.create", obj{"name": "their model", "uri": "x"}).OK(t).Str("id")

		// Companies do not see each other's models.
		e.CallAs(t, other, "models.get_by_id", obj{"model": mine}).Err(t, 400, 201)
		sameIDs(t, "other sees", ids(e.CallAs(t, other, "models.get_all", nil).OK(t), "models"), theirs)
		e.CallAs(t, other, "models.edit", obj{"model": mine, "name": "hijack"}).Err(t, 400, 201)
		e.CallAs(t, other, "models.make_public", obj{"ids": []string{mine}}).Err(t, 400, 201)

		// Public: readable by every company, writable by none.
		r := e.Call(t, "models.make_public", obj{"ids": []string{mine}}).OK(t)
		if r.Num("updated") != 1 {
			t.Fatalf("make_public: %s", r.Raw)
		}
		if g := e.CallAs(t, other, "models.get_by_id", obj{"model": mine}).OK(t); g.Str("model.company") != "" {
			t.Fatalf("public model company: %s", g.Raw)
		}
		sameIDs(t, "other sees public", ids(e.CallAs(t, other, "models.get_all", nil).OK(t), "models"), theirs, mine)
		sameIDs(t, "allow_public false", ids(e.CallAs(t, other, "models.get_all_ex", obj{"allow_public": false}).OK(t), "models"), theirs)
		if ex := e.CallAs(t, other, "models.get_all_ex", obj{"id": []string{mine}}).OK(t); len(testenv.Get(ex.Data, "models.0.company").(map[string]any)) != 0 {
			t.Fatalf("public company ref is {}: %s", ex.Raw)
		}
		if fw := e.CallAs(t, other, "models.get_frameworks", nil).OK(t); len(fw.List("frameworks")) != 1 {
			t.Fatalf("public frameworks: %s", fw.Raw)
		}
		for _, tok := range []string{e.Token, other} {
			e.CallAs(t, tok, "models.edit", obj{"model": mine, "name": "changed"}).Err(t, 400, 201)
			e.CallAs(t, tok, "models.delete", obj{"model": mine, "force": true}).Err(t, 400, 201)
			e.CallAs(t, tok, "models.set_ready", obj{"model": mine}).Err(t, 400, 201)
			e.CallAs(t, tok, "models.add_or_update_metadata", obj{"model": mine, "metadata": []obj{{"key": "k", "type": "t", "value": "v"}}}).Err(t, 400, 201)
		}
		// Only the origin company makes it private again; nothing changes on a refusal.
		e.CallAs(t, other, "models.make_private", obj{"ids": []string{mine}}).Err(t, 400, 201)
		e.Call(t, "models.make_private", obj{"ids": []string{mine, "nope"}}).Err(t, 400, 201)
		if r := e.Call(t, "models.make_private", obj{"ids": []string{mine}}).OK(t); r.Num("updated") != 1 {
			t.Fatalf("make_private: %s", r.Raw)
		}
		e.CallAs(t, other, "models.get_by_id", obj{"model": mine}).Err(t, 400, 201)
		if getModel(t, e, mine)["name"] != "shared model" {
			t.Fatal("public model was written")
		}
		// Created public: the creating company can make it private.
		pub := mkModel(t, e, "born public", obj{"public": true})
		e.CallAs(t, other, "models.get_by_id", obj{"model": pub}).OK(t)
		e.Call(t, "models.make_private", obj{"ids": []string{pub}}).OK(t)
		e.CallAs(t, other, "models.get_by_id", obj{"model": pub}).Err(t, 400, 201)
		// Below 2.9 the operations do not exist.
		e.Call(t, "v2.8/models.make_public", obj{"ids": []string{mine}}).Err(t, 404, 0)
	}, testenv.WithUsers(otherUser))
}
