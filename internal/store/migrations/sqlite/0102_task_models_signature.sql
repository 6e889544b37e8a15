-- The input-model side table (migration 0022) was kept by an update
-- trigger that searched both the old and the new document for an empty
-- input list: two scans of a 15 KB document on every batch of scalars,
-- and, for a task that has input models, a delete and re-insert of its
-- side rows on every batch. A third fingerprint column, models_sig
-- (store/task_sigs.go, written from Go with every task), summarizes the
-- input models; the trigger now compares it, as 0096 does for the name
-- indexes. NULL means "unknown" and the trigger rebuilds the rows.
ALTER TABLE tasks ADD COLUMN models_sig TEXT;

DROP TRIGGER tasks_input_models_update;
CREATE TRIGGER tasks_input_models_update AFTER UPDATE OF doc ON tasks
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity = 'tasks') THEN 0
        ELSE (OLD.models_sig IS NULL OR NEW.models_sig IS NULL OR OLD.models_sig IS NOT NEW.models_sig) END BEGIN
    DELETE FROM task_input_models WHERE task = OLD.id;
    INSERT INTO task_input_models (task, model)
        SELECT NEW.id, json_extract(m.value, '$.model') FROM json_each(NEW.doc, '$.models.input') AS m
        WHERE json_extract(m.value, '$.model') IS NOT NULL;
END;
