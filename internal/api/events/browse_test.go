package events_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trove-ml/trove/internal/testenv"
)

func image(task, variant string, iter int, url string) ev {
	return ev{"type": "training_debug_image", "task": task, "metric": "img", "variant": variant, "iter": iter, "url": url,
		"key": fmt.Sprintf("%s/%d", variant, iter)}
}

// iterationsOf summarises a browse answer as "iter:variant variant|...".
func iterationsOf(t *testing.T, r *testenv.Response) string {
	t.Helper()
	var parts []string
	for _, it := range testenv.Get(r.Data, "metrics.0.iterations").([]any) {
		m := it.(map[string]any)
		var vs []string
		for _, e := range m["events"].([]any) {
			vs = append(vs, e.(map[string]any)["variant"].(string))
		}
		parts = append(parts, fmt.Sprintf("%v:%s", m["iter"], strings.Join(vs, " ")))
	}
	return strings.Join(parts, "|")
}

func TestDebugImages(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "images")
		var evs []any
		for i := 0; i < 10; i++ {
			// the SDK recycles file names: a every 7 iterations, b every 4
			evs = append(evs, image(task, "a", i, fmt.Sprintf("http://f/a/%d.png", i%7)), image(task, "b", i, fmt.Sprintf("http://f/b/%d.png", i%4)))
		}
		evs = append(evs, ev{"type": "training_debug_image", "task": task, "metric": "img", "variant": "c", "iter": 9, "key": "no-url"})
		batch(t, e, evs...).OK(t)
		browse := func(body map[string]any) *testenv.Response {
			return e.Call(t, "events.debug_images", body).OK(t)
		}
		metrics := []map[string]any{{"task": task, "metric": "img"}}
		t.Run("stale files hidden, scroll ends empty", func(t *testing.T) {
			r := browse(map[string]any{"metrics": metrics, "iters": 100})
			if got := iterationsOf(t, r); got != "9:a b|8:a b|7:a b|6:a b|5:a|4:a|3:a" {
				t.Fatalf("got %s", got)
			}
			r = browse(map[string]any{"metrics": metrics, "iters": 100, "scroll_id": r.Str("scroll_id")})
			if got := iterationsOf(t, r); got != "" {
				t.Fatalf("scroll did not end: %s", got)
			}
		})
		t.Run("paging both ways", func(t *testing.T) {
			r := browse(map[string]any{"metrics": metrics, "iters": 2})
			sid := r.Str("scroll_id")
			want := []string{"9:a b|8:a b", "7:a b|6:a b", "5:a|4:a", "3:a", ""}
			for i, w := range want {
				if i > 0 {
					r = browse(map[string]any{"metrics": metrics, "iters": 2, "scroll_id": sid})
				}
				if got := iterationsOf(t, r); got != w || r.Str("scroll_id") != sid {
					t.Fatalf("page %d: got %s want %s", i, got, w)
				}
			}
			r = browse(map[string]any{"metrics": metrics, "iters": 2, "scroll_id": sid, "navigate_earlier": false})
			if got := iterationsOf(t, r); got != "5:a|4:a" {
				t.Fatalf("later: got %s", got)
			}
		})
		t.Run("requested variants only", func(t *testing.T) {
			r := browse(map[string]any{"metrics": []map[string]any{{"task": task, "metric": "img", "variants": []string{"b"}}}, "iters": 10})
			if got := iterationsOf(t, r); got != "9:b|8:b|7:b|6:b" {
				t.Fatalf("got %s", got)
			}
		})
		t.Run("refresh shows new iterations", func(t *testing.T) {
			r := browse(map[string]any{"metrics": []map[string]any{{"task": task}}, "iters": 1})
			sid := r.Str("scroll_id")
			batch(t, e, image(task, "a", 10, "http://f/a/new.png")).OK(t)
			r = browse(map[string]any{"metrics": []map[string]any{{"task": task}}, "iters": 1, "scroll_id": sid, "refresh": true})
			if got := iterationsOf(t, r); got != "10:a" {
				t.Fatalf("refresh: got %s", got)
			}
		})
		t.Run("bad scroll", func(t *testing.T) {
			e.Call(t, "events.debug_images", map[string]any{"metrics": metrics, "scroll_id": "nope"}).Err(t, 400, 1104)
			e.Call(t, "events.debug_images", map[string]any{"metrics": []map[string]any{}}).Err(t, 400, 12)
			e.Call(t, "events.debug_images", map[string]any{"metrics": []map[string]any{{"task": "missing"}}}).Err(t, 400, 101)
		})
	})
}

func sample(t *testing.T, r *testenv.Response) string {
	t.Helper()
	ev, _ := r.Data["event"].(map[string]any)
	if ev == nil {
		return "none"
	}
	return fmt.Sprintf("%s@%v", ev["variant"], ev["iter"])
}

func TestDebugImageSamples(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "samples")
		var evs []any
		for i := 0; i < 10; i++ {
			evs = append(evs, image(task, "a", i, fmt.Sprintf("http://f/a/%d.png", i%7)), image(task, "b", i, fmt.Sprintf("http://f/b/%d.png", i%4)))
		}
		batch(t, e, evs...).OK(t)
		r := e.Call(t, "events.get_debug_image_sample", map[string]any{"task": task, "metric": "img", "variant": "a"}).OK(t)
		if sample(t, r) != "a@9" || r.Num("min_iteration") != 3 || r.Num("max_iteration") != 9 {
			t.Fatalf("bad first sample %s", r.Raw)
		}
		sid := r.Str("scroll_id")
		next := func(body map[string]any) *testenv.Response {
			body["task"], body["scroll_id"] = task, sid
			return e.Call(t, "events.next_debug_image_sample", body).OK(t)
		}
		steps := []struct {
			body map[string]any
			want string
		}{
			{map[string]any{}, "b@8"},
			{map[string]any{}, "a@8"},
			{map[string]any{"navigate_earlier": false}, "b@8"},
			{map[string]any{"navigate_earlier": false}, "a@9"},
			{map[string]any{"navigate_earlier": false}, "b@9"},
			{map[string]any{"navigate_earlier": false}, "none"},
			{map[string]any{"next_iteration": true}, "b@8"},
		}
		for i, s := range steps {
			if got := sample(t, next(s.body)); got != s.want {
				t.Fatalf("step %d: got %s want %s", i, got, s.want)
			}
		}
		r = e.Call(t, "events.get_debug_image_sample", map[string]any{"task": task, "metric": "img", "variant": "b", "iteration": 7, "scroll_id": sid}).OK(t)
		if sample(t, r) != "b@7" || r.Num("min_iteration") != 6 {
			t.Fatalf("bad sample at 7 %s", r.Raw)
		}
		r = e.Call(t, "events.get_debug_image_sample", map[string]any{"task": task, "metric": "img", "variant": "b", "iteration": 4}).OK(t)
		if sample(t, r) != "none" {
			t.Fatalf("stale image shown %s", r.Raw)
		}
		e.Call(t, "events.get_debug_image_sample", map[string]any{"task": task, "metric": "other", "variant": "b", "scroll_id": sid}).Err(t, 400, 1104)
		e.Call(t, "events.next_debug_image_sample", map[string]any{"task": task, "scroll_id": "nope"}).Err(t, 400, 1104)
		e.Call(t, "events.next_debug_image_sample", map[string]any{"task": task}).Err(t, 400, 12)
		other := newTask(t, e, "other")
		e.Call(t, "events.next_debug_image_sample", map[string]any{"task": other, "scroll_id": sid}).Err(t, 400, 1104)
	})
}

func plot(task, metric, variant string, iter int) ev {
	return ev{"type": "plot", "task": task, "metric": metric, "variant": variant, "iter": iter,
		"plot_str": fmt.Sprintf(`{"data": [{"x": [%d]}], "layout": {"images": [{"source": "http://f/%s.png"}]}}`, iter, variant)}
}

func plotNames(t *testing.T, list []any) string {
	var out []string
	for _, x := range list {
		m := x.(map[string]any)
		out = append(out, fmt.Sprintf("%s/%s@%v", m["metric"], m["variant"], m["iter"]))
	}
	return strings.Join(out, " ")
}

func TestPlots(t *testing.T) {
	testenv.Each(t, func(t *testing.T, e *testenv.Env) {
		task := newTask(t, e, "plots")
		big := strings.Repeat(`{"x": [1, 2, 3]},`, 10000)
		batch(t, e, plot(task, "m1", "x", 0), plot(task, "m1", "y", 0), plot(task, "m1", "x", 1), plot(task, "m1", "y", 1),
			plot(task, "m1", "x", 2), plot(task, "m1", "y", 2), plot(task, "m2", "z", 1), plot(task, "m2", "z", 3),
			ev{"type": "plot", "task": task, "metric": "m3", "variant": "big", "iter": 0, "plot_str": big}).OK(t)
		t.Run("task plots", func(t *testing.T) {
			r := e.Call(t, "events.get_task_plots", map[string]any{"task": task, "metrics": []map[string]any{{"metric": "m1"}, {"metric": "m2"}}}).OK(t)
			if got := plotNames(t, r.List("plots")); got != "m1/x@2 m1/y@2 m2/z@3" || r.Num("total") != 3 || r.Data["scroll_id"] != nil {
				t.Fatalf("got %s", r.Raw)
			}
			p := r.List("plots")[0].(map[string]any)
			if p["plot_str"] != `{"data": [{"x": [2]}], "layout": {"images": [{"source": "http://f/x.png"}]}}` || p["plot_len"] == nil ||
				testenv.Get(p, "source_urls.0") != "http://f/x.png" {
				t.Fatalf("bad plot %v", p)
			}
			r = e.Call(t, "events.get_task_plots", map[string]any{"task": task, "iters": 2, "no_scroll": true}).OK(t)
			if got := plotNames(t, r.List("plots")); got != "m1/x@2 m1/x@1 m1/y@2 m1/y@1 m2/z@3 m2/z@1 m3/big@0" {
				t.Fatalf("got %s", got)
			}
			bigPlot := r.List("plots")[6].(map[string]any)
			if bigPlot["plot_str"] != big || bigPlot["plot_len"] != float64(len(big)) {
				t.Fatalf("large plot not returned intact")
			}
		})
		t.Run("browse", func(t *testing.T) {
			metrics := []map[string]any{{"task": task, "metric": "m1"}, {"task": task, "metric": "m2"}}
			r := e.Call(t, "events.plots", map[string]any{"metrics": metrics, "iters": 2}).OK(t)
			if got := iterationsOf(t, r); got != "3:z|2:x y" {
				t.Fatalf("got %s", got)
			}
			r = e.Call(t, "events.plots", map[string]any{"metrics": metrics, "iters": 2, "scroll_id": r.Str("scroll_id")}).OK(t)
			if got := iterationsOf(t, r); got != "1:x y z|0:x y" {
				t.Fatalf("got %s", got)
			}
		})
		t.Run("plots scroll id in debug images", func(t *testing.T) {
			// the reference keeps one browsing state for both reads: a plots
			// scroll id is a valid debug images scroll id (this task has no
			// images), and the plots chain carries on after it
			metrics := []map[string]any{{"task": task, "metric": "m1"}}
			sid := e.Call(t, "events.plots", map[string]any{"metrics": metrics, "iters": 2}).OK(t).Str("scroll_id")
			r := e.Call(t, "events.debug_images", map[string]any{"metrics": metrics, "iters": 2, "scroll_id": sid, "navigate_earlier": false}).OK(t)
			if got := iterationsOf(t, r); got != "" {
				t.Fatalf("images of a plots chain: %s", got)
			}
			r = e.Call(t, "events.plots", map[string]any{"metrics": metrics, "iters": 2, "scroll_id": sid}).OK(t)
			if got := iterationsOf(t, r); got != "0:x y" {
				t.Fatalf("plots after the images call: %s", got)
			}
		})
		t.Run("samples", func(t *testing.T) {
			r := e.Call(t, "events.get_plot_sample", map[string]any{"task": task, "metric": "m1"}).OK(t)
			if got := plotNames(t, r.List("events")); got != "m1/x@2 m1/y@2" || r.Num("min_iteration") != 0 || r.Num("max_iteration") != 2 {
				t.Fatalf("got %s", r.Raw)
			}
			sid := r.Str("scroll_id")
			r = e.Call(t, "events.next_plot_sample", map[string]any{"task": task, "scroll_id": sid}).OK(t)
			if got := plotNames(t, r.List("events")); got != "m1/x@1 m1/y@1" {
				t.Fatalf("earlier: got %s", got)
			}
			r = e.Call(t, "events.get_plot_sample", map[string]any{"task": task, "metric": "m1", "iteration": 2, "navigate_current_metric": false}).OK(t)
			sid = r.Str("scroll_id")
			steps := []struct {
				body map[string]any
				want string
			}{
				{map[string]any{"navigate_earlier": false}, "m2/z@3"},
				{map[string]any{"navigate_earlier": false}, ""},
				{map[string]any{}, "m1/x@2 m1/y@2"},
				{map[string]any{}, "m2/z@1"},
				{map[string]any{}, "m1/x@1 m1/y@1"},
				{map[string]any{"next_iteration": true}, "m3/big@0"},
			}
			for i, s := range steps {
				s.body["task"], s.body["scroll_id"] = task, sid
				r = e.Call(t, "events.next_plot_sample", s.body).OK(t)
				if got := plotNames(t, r.List("events")); got != s.want {
					t.Fatalf("step %d: got %q want %q", i, got, s.want)
				}
			}
		})
		t.Run("multi task", func(t *testing.T) {
			other := newTask(t, e, "other plots")
			batch(t, e, plot(other, "m1", "x", 5), plot(other, "m1", "x", 6)).OK(t)
			r := e.Call(t, "events.get_multi_task_plots", map[string]any{"tasks": []string{task, other}, "metrics": []map[string]any{{"metric": "m1", "variants": []string{"x"}}}}).OK(t)
			x := testenv.Get(r.Data, "plots.m1.x").(map[string]any)
			if len(x) != 2 || testenv.Get(x, other+".6.name") != "other plots" || testenv.Get(x, task+".2.plots.0.iter") != 2.0 || x[task].(map[string]any)["1"] != nil {
				t.Fatalf("bad multi plots %s", r.Raw)
			}
			if r.Num("returned") != 1 || r.Num("total") != 2 {
				t.Fatalf("bad counts %s", r.Raw)
			}
			r = e.Call(t, "events.get_multi_task_plots", map[string]any{"tasks": []string{task, other}, "scroll_id": r.Str("scroll_id")}).OK(t)
			if len(r.Data["plots"].(map[string]any)) != 0 {
				t.Fatalf("second page not empty %s", r.Raw)
			}
			e.Call(t, "events.get_multi_task_plots", map[string]any{"tasks": []string{"missing"}}).Err(t, 400, 101)
		})
	})
}
