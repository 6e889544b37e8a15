-- projects.get_hyper_parameters, get_hyperparam_values and
-- get_unique_metric_variants list the distinct hyper parameter names,
-- values and metric/variant pairs of a company's tasks. Reading every task
-- document took seconds on a large store, so a trigger keeps three tables of
-- those names per (company, project) with the number of tasks holding each,
-- on every write path. A row whose count falls to 0 stays (reads skip
-- it): deleting it on every write cost more than it saved. project is ''
-- for tasks without one. SQLite migration 0075 keeps the same tables.
-- Names and values are free text of any length, longer than a B-tree entry
-- may be here: the unique keys hold their md5 (the SQLite keys the text).
CREATE TABLE task_param_names (
    company TEXT NOT NULL,
    project TEXT NOT NULL,
    section TEXT NOT NULL,
    name    TEXT NOT NULL,
    tasks   BIGINT NOT NULL
);
CREATE UNIQUE INDEX task_param_names_key_md5 ON task_param_names (company, project, md5(section), md5(name));

CREATE TABLE task_param_values (
    company TEXT NOT NULL,
    project TEXT NOT NULL,
    section TEXT NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    tasks   BIGINT NOT NULL
);
CREATE UNIQUE INDEX task_param_values_key_md5 ON task_param_values (company, md5(section), md5(name), md5(value), project);

CREATE TABLE task_metric_variants (
    company      TEXT NOT NULL,
    project      TEXT NOT NULL,
    metric_hash  TEXT NOT NULL,
    variant_hash TEXT NOT NULL,
    metric       TEXT NOT NULL,
    variant      TEXT NOT NULL,
    tasks        BIGINT NOT NULL
);
CREATE UNIQUE INDEX task_metric_variants_key_md5 ON task_metric_variants
    (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant));

-- The names of a task document: hyper parameters are
-- hyperparams.<section>.<name>, values their "value" strings, metric pairs
-- the last_metrics.<metric hash>.<variant hash> objects.
CREATE FUNCTION trove_param_names(doc jsonb) RETURNS TABLE (section text, name text) LANGUAGE sql IMMUTABLE AS $$
    SELECT s.key, p.key
    FROM jsonb_each(CASE WHEN jsonb_typeof(doc -> 'hyperparams') = 'object' THEN doc -> 'hyperparams' ELSE '{}' END) s,
        jsonb_each(CASE WHEN jsonb_typeof(s.value) = 'object' THEN s.value ELSE '{}' END) p
$$;

CREATE FUNCTION trove_param_values(doc jsonb) RETURNS TABLE (section text, name text, value text) LANGUAGE sql IMMUTABLE AS $$
    SELECT s.key, p.key, p.value ->> 'value'
    FROM jsonb_each(CASE WHEN jsonb_typeof(doc -> 'hyperparams') = 'object' THEN doc -> 'hyperparams' ELSE '{}' END) s,
        jsonb_each(CASE WHEN jsonb_typeof(s.value) = 'object' THEN s.value ELSE '{}' END) p
    WHERE jsonb_typeof(p.value -> 'value') = 'string'
$$;

CREATE FUNCTION trove_metric_variants(doc jsonb)
    RETURNS TABLE (metric_hash text, variant_hash text, metric text, variant text) LANGUAGE sql IMMUTABLE AS $$
    SELECT m.key, v.key, coalesce(v.value ->> 'metric', ''), coalesce(v.value ->> 'variant', '')
    FROM jsonb_each(CASE WHEN jsonb_typeof(doc -> 'last_metrics') = 'object' THEN doc -> 'last_metrics' ELSE '{}' END) m,
        jsonb_each(CASE WHEN jsonb_typeof(m.value) = 'object' THEN m.value ELSE '{}' END) v
    WHERE jsonb_typeof(v.value) = 'object'
$$;

INSERT INTO task_param_names (company, project, section, name, tasks)
    SELECT t.company, coalesce(t.project, ''), x.section, x.name, count(*)
    FROM tasks t, trove_param_names(t.doc) x GROUP BY 1, 2, 3, 4;
INSERT INTO task_param_values (company, project, section, name, value, tasks)
    SELECT t.company, coalesce(t.project, ''), x.section, x.name, x.value, count(*)
    FROM tasks t, trove_param_values(t.doc) x GROUP BY 1, 2, 3, 4, 5;
INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
    SELECT t.company, coalesce(t.project, ''), x.metric_hash, x.variant_hash, x.metric, x.variant, count(*)
    FROM tasks t, trove_metric_variants(t.doc) x GROUP BY 1, 2, 3, 4, 5, 6;

-- Upkeep. An update moves only what changed: the names the old document
-- held and the new one does not lose a task (inserted at 0 if missing),
-- the new ones gain one. An insert only adds
-- and a delete only takes away. Rows are taken in key order, so concurrent
-- writers lock them in the same order.
CREATE FUNCTION trove_task_params_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    oc text := ''; op text := ''; od jsonb := '{}';
    nc text := ''; np text := ''; nd jsonb := '{}';
BEGIN
    IF TG_OP <> 'INSERT' THEN oc := OLD.company; op := coalesce(OLD.project, ''); od := OLD.doc; END IF;
    IF TG_OP <> 'DELETE' THEN nc := NEW.company; np := coalesce(NEW.project, ''); nd := NEW.doc; END IF;
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO task_param_names AS t (company, project, section, name, tasks)
            SELECT oc, op, x.section, x.name, 0 FROM (SELECT * FROM trove_param_names(od)
                EXCEPT SELECT * FROM trove_param_names(nd) WHERE nc = oc AND np = op) x
            ORDER BY 3, 4
            ON CONFLICT (company, project, md5(section), md5(name)) DO UPDATE SET tasks = t.tasks - 1;
        INSERT INTO task_param_values AS t (company, project, section, name, value, tasks)
            SELECT oc, op, x.section, x.name, x.value, 0 FROM (SELECT * FROM trove_param_values(od)
                EXCEPT SELECT * FROM trove_param_values(nd) WHERE nc = oc AND np = op) x
            ORDER BY 3, 4, 5
            ON CONFLICT (company, md5(section), md5(name), md5(value), project) DO UPDATE SET tasks = t.tasks - 1;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO task_param_names AS t (company, project, section, name, tasks)
            SELECT nc, np, x.section, x.name, 1 FROM (SELECT * FROM trove_param_names(nd)
                EXCEPT SELECT * FROM trove_param_names(od) WHERE nc = oc AND np = op) x
            ORDER BY 3, 4
            ON CONFLICT (company, project, md5(section), md5(name)) DO UPDATE SET tasks = t.tasks + 1;
        INSERT INTO task_param_values AS t (company, project, section, name, value, tasks)
            SELECT nc, np, x.section, x.name, x.value, 1 FROM (SELECT * FROM trove_param_values(nd)
                EXCEPT SELECT * FROM trove_param_values(od) WHERE nc = oc AND np = op) x
            ORDER BY 3, 4, 5
            ON CONFLICT (company, md5(section), md5(name), md5(value), project) DO UPDATE SET tasks = t.tasks + 1;
    END IF;
    RETURN NULL;
END
$$;

CREATE FUNCTION trove_task_metrics_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    oc text := ''; op text := ''; od jsonb := '{}';
    nc text := ''; np text := ''; nd jsonb := '{}';
BEGIN
    IF TG_OP <> 'INSERT' THEN oc := OLD.company; op := coalesce(OLD.project, ''); od := OLD.doc; END IF;
    IF TG_OP <> 'DELETE' THEN nc := NEW.company; np := coalesce(NEW.project, ''); nd := NEW.doc; END IF;
    IF TG_OP <> 'INSERT' THEN
        INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
            SELECT oc, op, x.metric_hash, x.variant_hash, x.metric, x.variant, 0 FROM (SELECT * FROM trove_metric_variants(od)
                EXCEPT SELECT * FROM trove_metric_variants(nd) WHERE nc = oc AND np = op) x
            ORDER BY 3, 4, 5, 6
            ON CONFLICT (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant))
            DO UPDATE SET tasks = t.tasks - 1;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO task_metric_variants AS t (company, project, metric_hash, variant_hash, metric, variant, tasks)
            SELECT nc, np, x.metric_hash, x.variant_hash, x.metric, x.variant, 1 FROM (SELECT * FROM trove_metric_variants(nd)
                EXCEPT SELECT * FROM trove_metric_variants(od) WHERE nc = oc AND np = op) x
            ORDER BY 3, 4, 5, 6
            ON CONFLICT (company, project, md5(metric_hash), md5(variant_hash), md5(metric), md5(variant))
            DO UPDATE SET tasks = t.tasks + 1;
    END IF;
    RETURN NULL;
END
$$;

-- Inserts and deletes of tasks without names (most new tasks have no
-- metrics yet) skip the call.
CREATE TRIGGER tasks_params_insert AFTER INSERT ON tasks FOR EACH ROW
    WHEN (NEW.doc -> 'hyperparams' IS NOT NULL AND NEW.doc -> 'hyperparams' <> '{}'::jsonb)
    EXECUTE FUNCTION trove_task_params_upkeep();
CREATE TRIGGER tasks_params_delete AFTER DELETE ON tasks FOR EACH ROW
    WHEN (OLD.doc -> 'hyperparams' IS NOT NULL AND OLD.doc -> 'hyperparams' <> '{}'::jsonb)
    EXECUTE FUNCTION trove_task_params_upkeep();
CREATE TRIGGER tasks_params_update AFTER UPDATE ON tasks FOR EACH ROW
    WHEN (OLD.company IS DISTINCT FROM NEW.company OR OLD.project IS DISTINCT FROM NEW.project
        OR OLD.doc -> 'hyperparams' IS DISTINCT FROM NEW.doc -> 'hyperparams')
    EXECUTE FUNCTION trove_task_params_upkeep();
CREATE TRIGGER tasks_metrics_insert AFTER INSERT ON tasks FOR EACH ROW
    WHEN (NEW.doc -> 'last_metrics' IS NOT NULL AND NEW.doc -> 'last_metrics' <> '{}'::jsonb)
    EXECUTE FUNCTION trove_task_metrics_upkeep();
CREATE TRIGGER tasks_metrics_delete AFTER DELETE ON tasks FOR EACH ROW
    WHEN (OLD.doc -> 'last_metrics' IS NOT NULL AND OLD.doc -> 'last_metrics' <> '{}'::jsonb)
    EXECUTE FUNCTION trove_task_metrics_upkeep();
CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks FOR EACH ROW
    WHEN (OLD.company IS DISTINCT FROM NEW.company OR OLD.project IS DISTINCT FROM NEW.project
        OR OLD.doc -> 'last_metrics' IS DISTINCT FROM NEW.doc -> 'last_metrics')
    EXECUTE FUNCTION trove_task_metrics_upkeep();
