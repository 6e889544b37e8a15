-- The events writer counts the metric names its task writes change
-- (store/task_name_counts.go), as on SQLite (migration 0106 there), but
-- here it does not add them to task_metric_variants in its transaction:
-- every task's first batch adds to the count rows of its project, which
-- every other task of the project shares, and a transaction holding them
-- made all the others wait until it committed. So the writes that add
-- names went to one lane, one group after another, and at 1,000
-- experiments starting together their first batches waited seconds.
-- The writer appends its differences to task_metric_variant_deltas, rows
-- no other transaction touches; a background job folds them into the
-- counts (store.FoldNameCountDeltas), and the readers add the rows not
-- yet folded. The statement trigger of migration 0104 is paused for those
-- writes by the setting trove.task_metrics_paused, local to the writer's
-- transaction (a row in upkeep_pauses, written and deleted by every group
-- adding names, left dead rows that the WHEN of every trigger on tasks
-- scanned until vacuum came by).
CREATE TABLE task_metric_variant_deltas (
    company TEXT NOT NULL,
    project TEXT NOT NULL,
    metric_hash TEXT NOT NULL,
    variant_hash TEXT NOT NULL,
    metric TEXT NOT NULL,
    variant TEXT NOT NULL,
    tasks INTEGER NOT NULL
);

DROP TRIGGER tasks_metrics_update ON tasks;
CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('tasks')
        AND current_setting('trove.task_metrics_paused', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION trove_task_metrics_update_upkeep();
