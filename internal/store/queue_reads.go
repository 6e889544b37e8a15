package store

import "context"

// QueueIDsOf lists the ids of the company's queues, ordered.
func (db *DB) QueueIDsOf(ctx context.Context, q Querier, company string) ([]string, error) {
	return IDs(ctx, q, "SELECT id FROM queues WHERE company = ? ORDER BY id", company)
}

// KnownQueueIDs returns those of ids that are queues of the company.
func (db *DB) KnownQueueIDs(ctx context.Context, q Querier, company string, ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return IDs(ctx, q, "SELECT id FROM queues WHERE company = ? AND id IN ("+Placeholders(len(ids))+")",
		append([]any{company}, Args(ids)...)...)
}

// QueuesByIDs loads the queues with the given ids (any company; unknown
// ids are left out).
func (db *DB) QueuesByIDs(ctx context.Context, q Querier, ids []string) ([]*Queue, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	return db.Queues().Select(ctx, q, "id IN ("+Placeholders(len(ids))+")", Args(ids)...)
}

// QueuesTagged lists the company's queues with the system tag, ordered by id.
func (db *DB) QueuesTagged(ctx context.Context, q Querier, company, systemTag string) ([]*Queue, error) {
	return db.Queues().Select(ctx, q, "company = ? AND "+SystemTagged(db.D)+" ORDER BY id", company, systemTag)
}
