-- Ingest now writes the tasks of a group transaction with one statement
-- (store/write_encoded_many.go) instead of one per task: a task's first
-- batch adds its metric names to count rows shared by every task of its
-- project, and with a statement per task a group held those rows over as
-- many round trips and trigger calls, while the other lanes waited on them.
-- The update triggers of migrations 0091/0096/0097 took their shortcut
-- for one-row updates only: a many-row update read the hyper parameters
-- and metric names of every old and new document (about 400 ms for 100
-- tasks of 50 metrics each). Their update branch now counts only the rows
-- whose fingerprint (or company, or project) changed, or is unknown; the
-- rows whose fingerprints stayed the same hold the same names before and
-- after, and cancel out exactly as before. The ids of the changed rows
-- are gathered first, from the distinct (id, company, project,
-- fingerprint) of both transition tables (no join of the two, which have
-- no index); an update that changed none returns at once, as the one-row
-- shortcut did. The update triggers call these new functions; inserts and
-- deletes keep theirs (whose update branch no trigger calls any more).
CREATE FUNCTION trove_task_params_update_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed text[];
BEGIN
    SELECT array_agg(r.id) INTO changed FROM (
        SELECT u.id FROM (SELECT id, company, project, params_sig FROM old_rows
            UNION SELECT id, company, project, params_sig FROM new_rows) u
        GROUP BY u.id HAVING count(*) > 1 OR bool_or(u.params_sig IS NULL)) r;
    IF changed IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO task_param_names AS t (company, project, section, name, tasks)
        SELECT d.company, d.project, d.section, d.name, sum(d.delta)
        FROM (SELECT o.company, coalesce(o.project, '') AS project, x.section, x.name, -1 AS delta
                FROM old_rows o, trove_param_names(o.doc) x WHERE o.id = ANY (changed)
            UNION ALL
            SELECT n.company, coalesce(n.project, ''), x.section, x.name, 1
                FROM new_rows n, trove_param_names(n.doc) x WHERE n.id = ANY (changed)) d
        GROUP BY 1, 2, 3, 4 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4
        ON CONFLICT (company, project, md5(section), md5(name)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    INSERT INTO task_param_values AS t (company, project, section, name, value, tasks)
        SELECT d.company, d.project, d.section, d.name, d.value, sum(d.delta)
        FROM (SELECT o.company, coalesce(o.project, '') AS project, x.section, x.name, x.value, -1 AS delta
                FROM old_rows o, trove_param_values(o.doc) x WHERE o.id = ANY (changed)
            UNION ALL
            SELECT n.company, coalesce(n.project, ''), x.section, x.name, x.value, 1
                FROM new_rows n, trove_param_values(n.doc) x WHERE n.id = ANY (changed)) d
        GROUP BY 1, 2, 3, 4, 5 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (company, md5(section), md5(name), md5(value), project) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    RETURN NULL;
END
$$;

DROP TRIGGER tasks_params_update ON tasks;
CREATE TRIGGER tasks_params_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('tasks')) EXECUTE FUNCTION trove_task_params_update_upkeep();

CREATE FUNCTION trove_task_metrics_update_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed text[];
BEGIN
    SELECT array_agg(r.id) INTO changed FROM (
        SELECT u.id FROM (SELECT id, company, project, metrics_sig FROM old_rows
            UNION SELECT id, company, project, metrics_sig FROM new_rows) u
        GROUP BY u.id HAVING count(*) > 1 OR bool_or(u.metrics_sig IS NULL)) r;
    IF changed IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
        SELECT d.company, d.project, d.metric_hash, d.variant_hash, d.metric, d.variant, sum(d.delta)
        FROM (SELECT o.company, coalesce(o.project, '') AS project, x.metric_hash, x.variant_hash, x.metric, x.variant, -1 AS delta
                FROM old_rows o, trove_metric_variants(o.doc) x WHERE o.id = ANY (changed)
            UNION ALL
            SELECT n.company, coalesce(n.project, ''), x.metric_hash, x.variant_hash, x.metric, x.variant, 1
                FROM new_rows n, trove_metric_variants(n.doc) x WHERE n.id = ANY (changed)) d
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant)) DO UPDATE SET tasks = t.tasks + excluded.tasks;
    RETURN NULL;
END
$$;

DROP TRIGGER tasks_metrics_update ON tasks;
CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT WHEN (NOT trove_upkeep_paused('tasks')) EXECUTE FUNCTION trove_task_metrics_update_upkeep();
