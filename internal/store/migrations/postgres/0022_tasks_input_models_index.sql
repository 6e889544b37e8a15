-- Deleting a model asks which tasks use it as an input model; this index
-- answers the containment test on models.input without reading every task.
CREATE INDEX tasks_input_models ON tasks USING GIN ((doc -> 'models' -> 'input') jsonb_path_ops);
