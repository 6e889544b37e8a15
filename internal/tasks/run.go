package tasks

import (
	"context"

	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/store"
)

// StatusOp is a state operation inside the caller's transaction.
type StatusOp func(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error)

// RunStatus runs a state operation on one task in its own transaction
// (each id of a _many call gets its own).
func RunStatus(ctx context.Context, d *domain.Env, op StatusOp, r StatusRequest) (*domain.Update, error) {
	var res *domain.Update
	err := d.DB.Tx(ctx, func(q store.Querier) error {
		var err error
		res, err = op(ctx, d, q, r)
		return err
	})
	return res, err
}

// PublishOp is Publish as a state operation; publishModel also publishes
// the task's output models.
func PublishOp(publishModel bool) StatusOp {
	return func(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) (*domain.Update, error) {
		return Publish(ctx, d, q, r.Company, r.User, r.Task, r.Force, publishModel, r.StatusReason, r.StatusMessage)
	}
}

// EnqueueTask is Enqueue in its own transaction.
func EnqueueTask(ctx context.Context, d *domain.Env, r EnqueueRequest) (*domain.Update, error) {
	return RunStatus(ctx, d, func(ctx context.Context, d *domain.Env, q store.Querier, _ StatusRequest) (*domain.Update, error) {
		return Enqueue(ctx, d, q, r)
	}, r.StatusRequest)
}

// DequeueTask is Dequeue in its own transaction.
func DequeueTask(ctx context.Context, d *domain.Env, r DequeueRequest) (*domain.Update, error) {
	return RunStatus(ctx, d, func(ctx context.Context, d *domain.Env, q store.Querier, _ StatusRequest) (*domain.Update, error) {
		return Dequeue(ctx, d, q, r)
	}, r.StatusRequest)
}

// VisibilityOp is Archive or Unarchive.
type VisibilityOp func(ctx context.Context, d *domain.Env, q store.Querier, r StatusRequest) error

// RunVisibility runs Archive or Unarchive on one task in its own
// transaction.
func RunVisibility(ctx context.Context, d *domain.Env, op VisibilityOp, r StatusRequest) error {
	return d.DB.Tx(ctx, func(q store.Querier) error { return op(ctx, d, q, r) })
}

// Get loads a task the company may read (tasks.get_by_id).
func Get(ctx context.Context, d *domain.Env, company, id string) (*store.Task, error) {
	return Visible(ctx, d, d.DB.Read(), company, id)
}
