-- Migration 0075's triggers ran once per task row: a statement writing
-- many tasks (a bulk load, projects.merge of a project of 5,000 tasks)
-- made thousands of PL/pgSQL calls, over a minute under load. The same
-- upkeep now runs once per statement over its transition tables: an insert
-- adds the names of its rows, a delete takes them away, an update takes
-- away the old rows' names and adds the new rows', by the net count per
-- name (what it left as it was cancels out; a join of the two transition
-- tables, which have no index, made a large update quadratic). Rows are
-- upserted in key order, so concurrent writers lock them in the same
-- order. SQLite has no statement triggers (its migration 0091 changes
-- nothing); its row triggers run in-process.
DROP TRIGGER tasks_params_insert ON tasks;
DROP TRIGGER tasks_params_delete ON tasks;
DROP TRIGGER tasks_params_update ON tasks;
DROP TRIGGER tasks_metrics_insert ON tasks;
DROP TRIGGER tasks_metrics_delete ON tasks;
DROP TRIGGER tasks_metrics_update ON tasks;
DROP FUNCTION trove_task_params_upkeep();
DROP FUNCTION trove_task_metrics_upkeep();

CREATE FUNCTION trove_task_params_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO task_param_names AS t (company, project, section, name, tasks)
            SELECT d.company, d.project, d.section, d.name, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, x.section, x.name, 1 AS delta
                    FROM new_rows n, trove_param_names(n.doc) x) d
            GROUP BY 1, 2, 3, 4 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4
            ON CONFLICT (company, project, md5(section), md5(name)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
        INSERT INTO task_param_values AS t (company, project, section, name, value, tasks)
            SELECT d.company, d.project, d.section, d.name, d.value, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, x.section, x.name, x.value, 1 AS delta
                    FROM new_rows n, trove_param_values(n.doc) x) d
            GROUP BY 1, 2, 3, 4, 5 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5
            ON CONFLICT (company, md5(section), md5(name), md5(value), project) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO task_param_names AS t (company, project, section, name, tasks)
            SELECT d.company, d.project, d.section, d.name, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, x.section, x.name, -1 AS delta
                    FROM old_rows o, trove_param_names(o.doc) x) d
            GROUP BY 1, 2, 3, 4 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4
            ON CONFLICT (company, project, md5(section), md5(name)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
        INSERT INTO task_param_values AS t (company, project, section, name, value, tasks)
            SELECT d.company, d.project, d.section, d.name, d.value, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, x.section, x.name, x.value, -1 AS delta
                    FROM old_rows o, trove_param_values(o.doc) x) d
            GROUP BY 1, 2, 3, 4, 5 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5
            ON CONFLICT (company, md5(section), md5(name), md5(value), project) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    ELSE
        -- A one-row update that changes none of them (most do) is done.
        IF (SELECT count(*) FROM new_rows) = 1 AND NOT EXISTS (
            SELECT 1 FROM old_rows o, new_rows n
            WHERE (o.company, o.project, o.doc -> 'hyperparams') IS DISTINCT FROM (n.company, n.project, n.doc -> 'hyperparams')) THEN
            RETURN NULL;
        END IF;
        INSERT INTO task_param_names AS t (company, project, section, name, tasks)
            SELECT d.company, d.project, d.section, d.name, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, x.section, x.name, -1 AS delta
                    FROM old_rows o, trove_param_names(o.doc) x
                UNION ALL
                SELECT n.company, coalesce(n.project, ''), x.section, x.name, 1
                    FROM new_rows n, trove_param_names(n.doc) x) d
            GROUP BY 1, 2, 3, 4 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4
            ON CONFLICT (company, project, md5(section), md5(name)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
        INSERT INTO task_param_values AS t (company, project, section, name, value, tasks)
            SELECT d.company, d.project, d.section, d.name, d.value, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, x.section, x.name, x.value, -1 AS delta
                    FROM old_rows o, trove_param_values(o.doc) x
                UNION ALL
                SELECT n.company, coalesce(n.project, ''), x.section, x.name, x.value, 1
                    FROM new_rows n, trove_param_values(n.doc) x) d
            GROUP BY 1, 2, 3, 4, 5 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5
            ON CONFLICT (company, md5(section), md5(name), md5(value), project) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION trove_task_metrics_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
            SELECT d.company, d.project, d.metric_hash, d.variant_hash, d.metric, d.variant, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, x.metric_hash, x.variant_hash, x.metric, x.variant, 1 AS delta
                    FROM new_rows n, trove_metric_variants(n.doc) x) d
            GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
            ON CONFLICT (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
            SELECT d.company, d.project, d.metric_hash, d.variant_hash, d.metric, d.variant, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, x.metric_hash, x.variant_hash, x.metric, x.variant, -1 AS delta
                    FROM old_rows o, trove_metric_variants(o.doc) x) d
            GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
            ON CONFLICT (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    ELSE
        -- A one-row update that changes none of them (most do) is done.
        IF (SELECT count(*) FROM new_rows) = 1 AND NOT EXISTS (
            SELECT 1 FROM old_rows o, new_rows n
            WHERE (o.company, o.project, o.doc -> 'last_metrics') IS DISTINCT FROM (n.company, n.project, n.doc -> 'last_metrics')) THEN
            RETURN NULL;
        END IF;
        INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
            SELECT d.company, d.project, d.metric_hash, d.variant_hash, d.metric, d.variant, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, x.metric_hash, x.variant_hash, x.metric, x.variant, -1 AS delta
                    FROM old_rows o, trove_metric_variants(o.doc) x
                UNION ALL
                SELECT n.company, coalesce(n.project, ''), x.metric_hash, x.variant_hash, x.metric, x.variant, 1
                    FROM new_rows n, trove_metric_variants(n.doc) x) d
            GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
            ON CONFLICT (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_params_insert AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_params_upkeep();
CREATE TRIGGER tasks_params_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_params_upkeep();
CREATE TRIGGER tasks_params_delete AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_params_upkeep();
CREATE TRIGGER tasks_metrics_insert AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_metrics_upkeep();
CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_metrics_upkeep();
CREATE TRIGGER tasks_metrics_delete AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_metrics_upkeep();
