package queues

import (
	"context"
	"errors"

	"github.com/trove-ml/trove/internal/apierr"
	"github.com/trove-ml/trove/internal/domain"
	"github.com/trove-ml/trove/internal/jsonx"
	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
	"github.com/trove-ml/trove/internal/store"
	taskdom "github.com/trove-ml/trove/internal/tasks"
)

type taskInQueueRequest struct {
	Queue string `json:"queue" required:"true"`
	Task  string `json:"task" required:"true"`
}

type addTaskRequest struct {
	taskInQueueRequest
	// UpdateExecutionQueue (2.31, default true) also sets the task's
	// execution.queue to this queue.
	UpdateExecutionQueue *bool `json:"update_execution_queue"`
}

type addTaskResponse struct {
	Added int `json:"added"`
}

// addTask appends a task of the company to the queue. The task's status
// does not change (tasks.enqueue is the operation that queues a task).
func (s *service) addTask(ctx context.Context, c *rpc.Call, req *addTaskRequest) (*addTaskResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := queues.Get(ctx, s.d.DB, q, c.Company(), req.Queue); err != nil {
			return err
		}
		// Lock the task before the queue, the lock order of tasks.enqueue.
		t, err := s.d.DB.Tasks().GetForUpdate(ctx, q, req.Task, c.Company())
		if err != nil {
			return domain.NotFound(err, apierr.InvalidTaskID(req.Task))
		}
		if err := s.d.DB.AddQueueEntry(ctx, q, req.Queue, t.ID, s.d.Now().UnixMilli()); err != nil {
			if errors.Is(err, store.ErrAlreadyQueued) {
				return apierr.TaskAlreadyQueued(t.ID)
			}
			return err
		}
		if req.UpdateExecutionQueue != nil && !*req.UpdateExecutionQueue {
			return nil
		}
		t.Normalize()
		t.Execution.Queue = req.Queue
		return s.d.DB.Tasks().Update(ctx, q, t)
	})
	if err != nil {
		return nil, err
	}
	return &addTaskResponse{Added: 1}, nil
}

type removeTaskRequest struct {
	taskInQueueRequest
	// UpdateTaskStatus (2.31) gives the task back its status before the
	// enqueue.
	UpdateTaskStatus bool `json:"update_task_status"`
}

type removeTaskResponse struct {
	Removed int `json:"removed"`
}

func (s *service) removeTask(ctx context.Context, c *rpc.Call, req *removeTaskRequest) (*removeTaskResponse, error) {
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue); err != nil {
			return err
		}
		ok, err := s.d.DB.RemoveQueueEntry(ctx, q, req.Queue, req.Task, s.d.Time())
		if err != nil {
			return err
		}
		if !ok {
			return apierr.TaskNotQueued(req.Queue, req.Task)
		}
		if req.UpdateTaskStatus {
			_, err = taskdom.Revert(ctx, &s.d.Env, q, c.Company(), c.User(), req.Queue, []string{req.Task},
				"Task was removed from the queue "+req.Queue)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &removeTaskResponse{Removed: 1}, nil
}

type queueRequest struct {
	Queue string `json:"queue" required:"true"`
}

type clearQueueResponse struct {
	RemovedTasks []string `json:"removed_tasks"`
}

// clearQueue empties a queue (2.31); its tasks get their status back.
func (s *service) clearQueue(ctx context.Context, c *rpc.Call, req *queueRequest) (*clearQueueResponse, error) {
	var removed []string
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		if _, err := queues.GetForUpdate(ctx, s.d.DB, q, c.Company(), req.Queue); err != nil {
			return err
		}
		tasks, err := s.d.DB.ClearQueue(ctx, q, req.Queue, s.d.Time())
		if err != nil {
			return err
		}
		removed, err = taskdom.Revert(ctx, &s.d.Env, q, c.Company(), c.User(), req.Queue, tasks, "Queue "+req.Queue+" was cleared")
		return err
	})
	if err != nil {
		return nil, err
	}
	return &clearQueueResponse{RemovedTasks: removed}, nil
}

type getNextTaskRequest struct {
	Queue       string `json:"queue" required:"true"`
	GetTaskInfo bool   `json:"get_task_info"`
	// Task, when set, takes the top entry only if it is this task.
	Task string `json:"task"`
}

type taskInfo struct {
	Company string `json:"company"`
	User    string `json:"user"`
}

type getNextTaskResponse struct {
	Entry    *entry    `json:"entry,omitempty"`
	TaskInfo *taskInfo `json:"task_info,omitempty"`
}

// getNextTask hands out the top entry of a queue: each entry goes to
// exactly one caller. An empty queue answers {}.
func (s *service) getNextTask(ctx context.Context, c *rpc.Call, req *getNextTaskRequest) (*getNextTaskResponse, error) {
	var popped *store.QueueEntry
	err := s.d.DB.Tx(ctx, func(q store.Querier) error {
		// No lock on the queue: the entry's own row lock decides who
		// gets it, so workers of one queue are served in parallel.
		if _, err := queues.Get(ctx, s.d.DB, q, c.Company(), req.Queue); err != nil {
			return err
		}
		var err error
		popped, err = s.d.DB.PopQueueEntry(ctx, q, req.Queue, req.Task, s.d.Time())
		return err
	})
	if err != nil || popped == nil {
		return &getNextTaskResponse{}, err
	}
	resp := &getNextTaskResponse{Entry: &entry{Task: popped.Task, Added: jsonx.FromMillis(popped.Added)}}
	t, err := s.requeueStopped(ctx, popped.Task)
	if err != nil {
		return nil, err
	}
	if req.GetTaskInfo && t != nil {
		resp.TaskInfo = &taskInfo{Company: t.Company, User: t.User}
	}
	return resp, nil
}

// requeueStopped puts a handed-out task that was stopped meanwhile (an
// abort racing the enqueue) back to queued, as the reference does, so the
// agent can run it. It runs after the hand-out committed, taking the
// task's lock alone. The task is returned (nil when it no longer exists).
func (s *service) requeueStopped(ctx context.Context, id string) (*store.Task, error) {
	t, err := s.d.DB.Tasks().Get(ctx, s.d.DB.Read(), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil || t.Status != taskdom.Stopped {
		return t, err
	}
	err = s.d.DB.Tx(ctx, func(q store.Querier) error {
		t, err = s.d.DB.Tasks().GetForUpdate(ctx, q, id)
		if err != nil || t.Status != taskdom.Stopped {
			return err
		}
		t.Normalize()
		t.Status = taskdom.Queued
		return s.d.DB.Tasks().Update(ctx, q, t)
	})
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	return t, err
}

type peekTaskResponse struct {
	Task *string `json:"task"`
}

func (s *service) peekTask(ctx context.Context, c *rpc.Call, req *queueRequest) (*peekTaskResponse, error) {
	qu, err := queues.Get(ctx, s.d.DB, s.d.DB.Read(), c.Company(), req.Queue)
	if err != nil {
		return nil, err
	}
	top, err := s.d.DB.QueueEntries(ctx, s.d.DB.Read(), qu.ID, 1)
	if err != nil {
		return nil, err
	}
	if len(top) == 0 {
		return &peekTaskResponse{}, nil
	}
	return &peekTaskResponse{Task: &top[0].Task}, nil
}

type numEntriesResponse struct {
	Num int `json:"num"`
}

func (s *service) getNumEntries(ctx context.Context, c *rpc.Call, req *queueRequest) (*numEntriesResponse, error) {
	qu, err := queues.Get(ctx, s.d.DB, s.d.DB.Read(), c.Company(), req.Queue)
	if err != nil {
		return nil, err
	}
	load, err := s.d.DB.QueueLoadOf(ctx, s.d.DB.Read(), qu.ID)
	if err != nil {
		return nil, err
	}
	return &numEntriesResponse{Num: load.Entries}, nil
}
