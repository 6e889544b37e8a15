-- projects.get_hyper_parameters, get_hyperparam_values and
-- get_unique_metric_variants list the distinct hyper parameter names,
-- values and metric/variant pairs of a company's tasks. Reading every task
-- document took seconds on a large store, so triggers keep three tables of
-- those names per (company, project) with the number of tasks holding each,
-- on every write path. A row whose count falls to 0 stays (reads skip
-- it): deleting it on every write cost more than it saved. project is ''
-- for tasks without one. PostgreSQL migration 0075 keeps the same tables.
CREATE TABLE task_param_names (
    company TEXT NOT NULL,
    project TEXT NOT NULL,
    section TEXT NOT NULL,
    name    TEXT NOT NULL,
    tasks   BIGINT NOT NULL
);
CREATE UNIQUE INDEX task_param_names_key ON task_param_names (company, project, section, name);

CREATE TABLE task_param_values (
    company TEXT NOT NULL,
    project TEXT NOT NULL,
    section TEXT NOT NULL,
    name    TEXT NOT NULL,
    value   TEXT NOT NULL,
    tasks   BIGINT NOT NULL
);
CREATE UNIQUE INDEX task_param_values_key ON task_param_values (company, section, name, value, project);

CREATE TABLE task_metric_variants (
    company      TEXT NOT NULL,
    project      TEXT NOT NULL,
    metric_hash  TEXT NOT NULL,
    variant_hash TEXT NOT NULL,
    metric       TEXT NOT NULL,
    variant      TEXT NOT NULL,
    tasks        BIGINT NOT NULL
);
CREATE UNIQUE INDEX task_metric_variants_key ON task_metric_variants (company, project, metric_hash, variant_hash, metric, variant);

-- The names of a task document: hyper parameters are
-- hyperparams.<section>.<name>, values their "value" strings, metric pairs
-- the last_metrics.<metric hash>.<variant hash> objects.
INSERT INTO task_param_names (company, project, section, name, tasks)
    SELECT t.company, coalesce(t.project, ''), s.key, p.key, count(*)
    FROM tasks t, json_each(t.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
    GROUP BY 1, 2, 3, 4;

INSERT INTO task_param_values (company, project, section, name, value, tasks)
    SELECT t.company, coalesce(t.project, ''), s.key, p.key, json_extract(p.value, '$.value'), count(*)
    FROM tasks t, json_each(t.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
    WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text'
    GROUP BY 1, 2, 3, 4, 5;

INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
    SELECT t.company, coalesce(t.project, ''), m.key, v.key,
        coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), ''), count(*)
    FROM tasks t, json_each(t.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
    WHERE v.type = 'object'
    GROUP BY 1, 2, 3, 4, 5, 6;

-- Upkeep. An update moves only what changed: the names the old document
-- held and the new one does not lose a task (inserted at 0 if missing),
-- the new ones gain one.
CREATE TRIGGER tasks_params_insert AFTER INSERT ON tasks BEGIN
    INSERT INTO task_param_names (company, project, section, name, tasks)
        SELECT NEW.company, coalesce(NEW.project, ''), s.key, p.key, 1
        FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
        WHERE true
        ON CONFLICT (company, project, section, name) DO UPDATE SET tasks = tasks + 1;
    INSERT INTO task_param_values (company, project, section, name, value, tasks)
        SELECT NEW.company, coalesce(NEW.project, ''), s.key, p.key, json_extract(p.value, '$.value'), 1
        FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
        WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text'
        ON CONFLICT (company, section, name, value, project) DO UPDATE SET tasks = tasks + 1;
END;

CREATE TRIGGER tasks_params_delete AFTER DELETE ON tasks BEGIN
    UPDATE task_param_names SET tasks = tasks - 1
        WHERE company = OLD.company AND project = coalesce(OLD.project, '') AND (section, name) IN (
            SELECT s.key, p.key
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p);
    UPDATE task_param_values SET tasks = tasks - 1
        WHERE company = OLD.company AND project = coalesce(OLD.project, '') AND (section, name, value) IN (
            SELECT s.key, p.key, json_extract(p.value, '$.value')
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text');
END;

CREATE TRIGGER tasks_params_update AFTER UPDATE ON tasks
    WHEN OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project
        OR json_extract(OLD.doc, '$.hyperparams') IS NOT json_extract(NEW.doc, '$.hyperparams') BEGIN
    INSERT INTO task_param_names (company, project, section, name, tasks)
        SELECT c, pr, sec, nam, 0 FROM (
            SELECT OLD.company AS c, coalesce(OLD.project, '') AS pr, s.key AS sec, p.key AS nam
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            EXCEPT
            SELECT NEW.company, coalesce(NEW.project, ''), s.key, p.key
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p)
        WHERE true
        ON CONFLICT (company, project, section, name) DO UPDATE SET tasks = tasks - 1;
    INSERT INTO task_param_names (company, project, section, name, tasks)
        SELECT c, pr, sec, nam, 1 FROM (
            SELECT NEW.company AS c, coalesce(NEW.project, '') AS pr, s.key AS sec, p.key AS nam
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            EXCEPT
            SELECT OLD.company, coalesce(OLD.project, ''), s.key, p.key
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p)
        WHERE true
        ON CONFLICT (company, project, section, name) DO UPDATE SET tasks = tasks + 1;
    INSERT INTO task_param_values (company, project, section, name, value, tasks)
        SELECT c, pr, sec, nam, val, 0 FROM (
            SELECT OLD.company AS c, coalesce(OLD.project, '') AS pr, s.key AS sec, p.key AS nam, json_extract(p.value, '$.value') AS val
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text'
            EXCEPT
            SELECT NEW.company, coalesce(NEW.project, ''), s.key, p.key, json_extract(p.value, '$.value')
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text')
        WHERE true
        ON CONFLICT (company, section, name, value, project) DO UPDATE SET tasks = tasks - 1;
    INSERT INTO task_param_values (company, project, section, name, value, tasks)
        SELECT c, pr, sec, nam, val, 1 FROM (
            SELECT NEW.company AS c, coalesce(NEW.project, '') AS pr, s.key AS sec, p.key AS nam, json_extract(p.value, '$.value') AS val
            FROM json_each(NEW.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text'
            EXCEPT
            SELECT OLD.company, coalesce(OLD.project, ''), s.key, p.key, json_extract(p.value, '$.value')
            FROM json_each(OLD.doc, '$.hyperparams') s, json_each(CASE WHEN s.type = 'object' THEN s.value ELSE '{}' END) p
            WHERE p.type = 'object' AND json_type(p.value, '$.value') = 'text')
        WHERE true
        ON CONFLICT (company, section, name, value, project) DO UPDATE SET tasks = tasks + 1;
END;

-- Most new tasks have no metrics yet: their inserts skip the work.
CREATE TRIGGER tasks_metrics_insert AFTER INSERT ON tasks
    WHEN json_extract(NEW.doc, '$.last_metrics') <> '{}' BEGIN
    INSERT INTO task_metric_variants (company, project, metric_hash, variant_hash, metric, variant, tasks)
        SELECT NEW.company, coalesce(NEW.project, ''), m.key, v.key,
            coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), ''), 1
        FROM json_each(NEW.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
        WHERE v.type = 'object'
        ON CONFLICT (company, project, metric_hash, variant_hash, metric, variant) DO UPDATE SET tasks = tasks + 1;
END;

CREATE TRIGGER tasks_metrics_delete AFTER DELETE ON tasks
    WHEN json_extract(OLD.doc, '$.last_metrics') <> '{}' BEGIN
    UPDATE task_metric_variants SET tasks = tasks - 1
        WHERE company = OLD.company AND project = coalesce(OLD.project, '') AND (metric_hash, variant_hash, metric, variant) IN (
            SELECT m.key, v.key, coalesce(json_extract(v.value, '$.metric'), ''), coalesce(json_extract(v.value, '$.variant'), '')
            FROM json_each(OLD.doc, '$.last_metrics') m, json_each(CASE WHEN m.type = 'object' THEN m.value ELSE '{}' END) v
            WHERE v.type = 'object');
END;

CREATE TRIGGER tasks_metrics_update AFTER UPDATE ON tasks
    WHEN OLD.company IS NOT NEW.company OR OLD.project IS NOT NEW.project
        OR json_extract(OLD.doc, '$.last_metrics') IS NOT json_extract(NEW.doc, '$.last_metrics') BEGIN
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
