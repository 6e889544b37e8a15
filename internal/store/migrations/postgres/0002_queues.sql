-- Queues and their FIFO entries. pos orders entries; moving an entry
-- rewrites positions of that queue only.
CREATE TABLE queues (
    id          TEXT PRIMARY KEY,
    company     TEXT NOT NULL,
    name        TEXT NOT NULL,
    created     BIGINT NOT NULL,
    last_update BIGINT NOT NULL,
    tags        JSONB NOT NULL DEFAULT '[]',
    system_tags JSONB NOT NULL DEFAULT '[]',
    doc         JSONB NOT NULL,
    seq         BIGINT NOT NULL DEFAULT nextval('trove_seq')
);
CREATE UNIQUE INDEX queues_company_name ON queues (company, name);

CREATE TABLE queue_entries (
    queue TEXT NOT NULL REFERENCES queues(id) ON DELETE CASCADE,
    task  TEXT NOT NULL,
    added BIGINT NOT NULL,
    pos   BIGINT NOT NULL,
    PRIMARY KEY (queue, task)
);
CREATE INDEX queue_entries_order ON queue_entries (queue, pos);
CREATE INDEX queue_entries_task ON queue_entries (task);
