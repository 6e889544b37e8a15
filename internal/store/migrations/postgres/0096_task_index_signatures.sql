-- Every batch of scalars rewrites its task's document (last_metrics
-- values), and the statement triggers of migration 0091 decided whether a
-- one-row update changed the hyper-parameters or the metric names by
-- comparing those parts of the old and new jsonb documents. Two columns now
-- fingerprint what the triggers index (written with every task from Go,
-- store/task_sigs.go), and the shortcut compares them instead. A NULL
-- fingerprint (rows from before this migration) means "unknown": the
-- trigger does its full work, which is exact whatever changed.
ALTER TABLE tasks ADD COLUMN params_sig text;
ALTER TABLE tasks ADD COLUMN metrics_sig text;

CREATE OR REPLACE FUNCTION trove_task_params_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
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
            WHERE (o.company, o.project, o.params_sig) IS DISTINCT FROM (n.company, n.project, n.params_sig)
                OR o.params_sig IS NULL OR n.params_sig IS NULL) THEN
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

CREATE OR REPLACE FUNCTION trove_task_metrics_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
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
            WHERE (o.company, o.project, o.metrics_sig) IS DISTINCT FROM (n.company, n.project, n.metrics_sig)
                OR o.metrics_sig IS NULL OR n.metrics_sig IS NULL) THEN
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
