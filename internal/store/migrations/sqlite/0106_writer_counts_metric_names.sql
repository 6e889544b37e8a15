-- The events writer counts the metric names its task writes add
-- (store/task_name_counts.go): in a task's first batch this trigger parsed
-- the old and new 15 KB documents four times and every entry twice more,
-- over a third of the writer's time for first batches at 5,000 reporting
-- experiments. The writer pauses it with a row in upkeep_pauses for the
-- entity 'task_metrics', present only inside its own transaction, around
-- those writes. The trigger is otherwise the one of migration 0097.
DROP TRIGGER tasks_metrics_update;
CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks
    WHEN CASE WHEN EXISTS (SELECT 1 FROM upkeep_pauses WHERE entity IN ('tasks', 'task_metrics')) THEN 0 ELSE (OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project
        OR OLD.metrics_sig IS NULL OR NEW.metrics_sig IS NULL OR OLD.metrics_sig IS NOT NEW.metrics_sig) END BEGIN
    INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
        SELECT c, pr, mh, vh, met, var, 0 FROM (
            SELECT OLD.company AS c, coalesce(OLD.project, '') AS pr, m.key AS mh, v.key AS vh,
                coalesce(json_extract(v.value, '$.metric'), '') AS met, coalesce(json_extract(v.value, '$.variant'), '') AS var
            FROM json_each(OLD.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object'
            EXCEPT
            SELECT NEW.company, coalesce(NEW.project, ''), m.key, v.key,
                coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), '')
            FROM json_each(NEW.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object')
        WHERE true
        ON CONFLICT (company, project, metric_hash, variant_hash, metric, variant) DO UPDATE SET tasks = tasks - 1;
    INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
        SELECT c, pr, mh, vh, met, var, 1 FROM (
            SELECT NEW.company AS c, coalesce(NEW.project, '') AS pr, m.key AS mh, v.key AS vh,
                coalesce(json_extract(v.value, '$.metric'), '') AS met, coalesce(json_extract(v.value, '$.variant'), '') AS var
            FROM json_each(NEW.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object'
            EXCEPT
            SELECT OLD.company, coalesce(OLD.project, ''), m.key, v.key,
                coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), '')
            FROM json_each(OLD.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object')
        WHERE true
        ON CONFLICT (company, project, metric_hash, variant_hash, metric, variant) DO UPDATE SET tasks = tasks + 1;
END;
