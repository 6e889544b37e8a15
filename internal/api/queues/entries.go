package queues

import (
	"context"

	"github.com/trove-ml/trove/internal/queues"
	"github.com/trove-ml/trove/internal/rpc"
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

// addTask appends a task of the company to the queue.
func (s *service) addTask(ctx context.Context, c *rpc.Call, req *addTaskRequest) (*addTaskResponse, error) {
	setQueue := req.UpdateExecutionQueue == nil || *req.UpdateExecutionQueue
	if err := queues.AddTask(ctx, &s.d.Env, c.Company(), req.Queue, req.Task, setQueue); err != nil {
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
	if err := taskdom.RemoveFromQueue(ctx, &s.d.Env, c.Company(), c.User(), req.Queue, req.Task, req.UpdateTaskStatus); err != nil {
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
	removed, err := taskdom.ClearQueue(ctx, &s.d.Env, c.Company(), c.User(), req.Queue)
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

// getNextTask hands out the top entry of a queue. An empty queue answers {}.
func (s *service) getNextTask(ctx context.Context, c *rpc.Call, req *getNextTaskRequest) (*getNextTaskResponse, error) {
	h, err := taskdom.NextFromQueue(ctx, &s.d.Env, c.Company(), req.Queue, req.Task)
	if err != nil || h == nil {
		return &getNextTaskResponse{}, err
	}
	e := toEntry(h.Entry)
	resp := &getNextTaskResponse{Entry: &e}
	if req.GetTaskInfo && h.Task != nil {
		resp.TaskInfo = &taskInfo{Company: h.Task.Company, User: h.Task.User}
	}
	return resp, nil
}

type peekTaskResponse struct {
	Task *string `json:"task"`
}

func (s *service) peekTask(ctx context.Context, c *rpc.Call, req *queueRequest) (*peekTaskResponse, error) {
	top, err := queues.Peek(ctx, &s.d.Env, c.Company(), req.Queue)
	if err != nil || top == "" {
		return &peekTaskResponse{}, err
	}
	return &peekTaskResponse{Task: &top}, nil
}

type numEntriesResponse struct {
	Num int `json:"num"`
}

func (s *service) getNumEntries(ctx context.Context, c *rpc.Call, req *queueRequest) (*numEntriesResponse, error) {
	n, err := queues.NumEntries(ctx, &s.d.Env, c.Company(), req.Queue)
	if err != nil {
		return nil, err
	}
	return &numEntriesResponse{Num: n}, nil
}

type getByTaskIDRequest struct {
	Task string `json:"task" required:"true"`
}

// getByTaskIDResponse is the queue a task waits in; empty when none.
type getByTaskIDResponse struct {
	ID          string `json:"id,omitempty"`
	Name        string `json:"name,omitempty"`
	DisplayName string `json:"display_name,omitempty"`
}

// getByTaskID answers the queue a task waits in (the web app's Dequeue
// dialog names it): {id, name, display_name}, or {} when the task waits
// in no queue. An unknown task is 400/101.
func (s *service) getByTaskID(ctx context.Context, c *rpc.Call, req *getByTaskIDRequest) (*getByTaskIDResponse, error) {
	task, err := taskdom.Get(ctx, &s.d.Env, c.Company(), req.Task)
	if err != nil {
		return nil, err
	}
	qu, err := queues.OfTask(ctx, &s.d.Env, c.Company(), task)
	if err != nil || qu == nil {
		return &getByTaskIDResponse{}, err
	}
	return &getByTaskIDResponse{ID: qu.ID, Name: qu.Name, DisplayName: qu.DisplayName}, nil
}
