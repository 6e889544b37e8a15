-- Deleting a model asks which tasks use it as an input model. SQLite can
-- not index inside a JSON array, so triggers keep a side table of the
-- (task, input model) pairs of every task document, on every write path.
-- Most tasks have no input model: documents are written compact, so the
-- text "models":{"input":[] spots them without parsing the JSON.
CREATE TABLE task_input_models (
    task  TEXT NOT NULL,
    model TEXT NOT NULL
);
CREATE INDEX task_input_models_model ON task_input_models (model);
CREATE INDEX task_input_models_task ON task_input_models (task);

INSERT INTO task_input_models (task, model)
    SELECT tasks.id, json_extract(m.value, '$.model') FROM tasks, json_each(tasks.doc, '$.models.input') AS m
    WHERE json_extract(m.value, '$.model') IS NOT NULL;

CREATE TRIGGER tasks_input_models_insert AFTER INSERT ON tasks
    WHEN instr(NEW.doc, '"models":{"input":[]') = 0 BEGIN
    INSERT INTO task_input_models (task, model)
        SELECT NEW.id, json_extract(m.value, '$.model') FROM json_each(NEW.doc, '$.models.input') AS m
        WHERE json_extract(m.value, '$.model') IS NOT NULL;
END;

CREATE TRIGGER tasks_input_models_update AFTER UPDATE OF doc ON tasks
    WHEN instr(OLD.doc, '"models":{"input":[]') = 0 OR instr(NEW.doc, '"models":{"input":[]') = 0 BEGIN
    DELETE FROM task_input_models WHERE task = OLD.id;
    INSERT INTO task_input_models (task, model)
        SELECT NEW.id, json_extract(m.value, '$.model') FROM json_each(NEW.doc, '$.models.input') AS m
        WHERE json_extract(m.value, '$.model') IS NOT NULL;
END;

CREATE TRIGGER tasks_input_models_delete AFTER DELETE ON tasks BEGIN
    DELETE FROM task_input_models WHERE task = OLD.id;
END;
