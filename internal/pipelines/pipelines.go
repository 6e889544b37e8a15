// Package pipelines holds the rules of pipeline runs: a pipeline is a
// project whose controller tasks (type controller, system tag pipeline)
// are its runs. Starting a pipeline clones a controller with new Args and
// enqueues the clone; deleting runs must leave at least one.
package pipelines

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strconv"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/projects"
	"github.com/trove-ml/trove/internal/store"
	"github.com/trove-ml/trove/internal/tasks"
	"github.com/trove-ml/trove/internal/workers"
)

// argsSection is the hyper parameter section a run's arguments go to.
const argsSection = "Args"

// controllerType is the task type of pipeline runs.
const controllerType = "controller"

// Arg is one argument of a run.
type Arg struct{ Name, Value string }

// StartInput starts a run of the pipeline whose controller is Task.
type StartInput struct {
	Company, User, Task string
	// Queue is the queue id ("" = the default queue).
	Queue string
	Args  []Arg
	// VerifyWatchedQueue reports whether a worker serves the queue.
	VerifyWatchedQueue bool
}

// Started is the new run.
type Started struct {
	ID       string
	Enqueued bool
	// QueueWatched is set when asked and the run was enqueued.
	QueueWatched *bool
}

// Start clones the controller with the arguments in its Args section,
// names the clone after its project with a run number, and enqueues it.
func Start(ctx context.Context, env *domain.Env, in StartInput) (*Started, error) {
	src, err := tasks.Get(ctx, env, in.Company, in.Task)
	if err != nil {
		return nil, err
	}
	cr := tasks.CloneRequest{Company: in.Company, User: in.User, Task: in.Task,
		SystemTags: domain.WithoutTag(src.SystemTags, tasks.TagArchived)}
	if len(in.Args) > 0 {
		cr.Hyperparams = withArgs(src.Hyperparams, in.Args)
	}
	clone, err := tasks.Clone(ctx, env, cr, projects.EnsureByName)
	if err != nil {
		return nil, err
	}
	out := &Started{ID: clone.ID}
	err = env.DB.Tx(ctx, func(q store.Querier) error {
		if err := nameRun(ctx, env, q, in.Company, clone.ID); err != nil {
			return err
		}
		upd, err := tasks.Enqueue(ctx, env, q, tasks.EnqueueRequest{ScriptOptional: true, Queue: in.Queue,
			StatusRequest: tasks.StatusRequest{Company: in.Company, User: in.User, Task: clone.ID, StatusMessage: "Starting pipeline"}})
		if err != nil {
			return err
		}
		out.Enqueued = upd.Updated > 0
		if in.VerifyWatchedQueue && out.Enqueued {
			queue, _ := upd.Fields["execution.queue"].(string)
			watched, err := watched(ctx, env, in.Company, queue)
			if err != nil {
				return err
			}
			out.QueueWatched = &watched
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// withArgs is the controller's hyper parameters with the Args section
// replaced by the run's arguments.
func withArgs(hp map[string]map[string]*store.ParamItem, args []Arg) map[string]map[string]*tasks.ParamInput {
	out := map[string]map[string]*tasks.ParamInput{}
	for sec, items := range hp {
		if sec == argsSection {
			continue
		}
		out[sec] = map[string]*tasks.ParamInput{}
		for name, p := range items {
			v := p.Value
			out[sec][name] = &tasks.ParamInput{Section: p.Section, Name: p.Name, Value: &v, Type: p.Type, Description: p.Description}
		}
	}
	out[argsSection] = map[string]*tasks.ParamInput{}
	for _, a := range args {
		v := a.Value
		out[argsSection][a.Name] = &tasks.ParamInput{Section: argsSection, Name: a.Name, Value: &v}
	}
	return out
}

// nameRun names a run after its project's basename, numbered by how many
// pipeline tasks of the project already carry that name ("P", "P #2").
func nameRun(ctx context.Context, env *domain.Env, q store.Querier, company, id string) error {
	t, err := tasks.LoadWritable(ctx, env, q, company, id)
	if err != nil || t.Project == "" {
		return err
	}
	p, err := env.DB.Projects().Get(ctx, q, t.Project)
	if err != nil {
		return domain.NotFound(err, apierr.InvalidProjectID(t.Project))
	}
	prefix := path.Base(p.Name)
	names, err := env.DB.ScopedTaskNames(ctx, q, store.ContentScope{Companies: domain.Visible(company),
		Projects: []string{t.Project}, SystemTag: projects.PipelineTag})
	if err != nil {
		return err
	}
	numbered := regexp.MustCompile(regexp.QuoteMeta(prefix) + `( #\d+)?$`)
	n := 0
	for _, name := range names {
		if numbered.MatchString(name) {
			n++
		}
	}
	t.Name = prefix
	if n > 0 {
		t.Name = prefix + " #" + strconv.Itoa(n)
	}
	return env.DB.Tasks().Update(ctx, q, t)
}

// watched reports whether a live worker of the company serves the queue.
func watched(ctx context.Context, env *domain.Env, company, queue string) (bool, error) {
	list, err := workers.Find(ctx, env, company, workers.Filter{})
	if err != nil {
		return false, err
	}
	for _, w := range list {
		if slices.Contains(w.Queues, queue) {
			return true, nil
		}
	}
	return false, nil
}
