-- organization.get_tags, projects.get_task_tags / get_model_tags,
-- tasks.get_types and projects.get_task_parents list the distinct tags,
-- system tags, types and parents of a company's tasks and models. Reading
-- every row took seconds on a store of 100,000 tasks, so triggers keep
-- them per (company, project, archived or not) with the number of records
-- holding each, in the statement of every write (as migration 0075 does
-- for hyper parameters). A row whose count falls to 0 stays (reads skip
-- it). project is '' for records without one; archived is 1 when the
-- record's system tags hold "archived". A JSON null in a tag list is no
-- tag. SQLite migration 0090 keeps the same table.
-- Values are keyed by their md5 (a B-tree entry cannot hold long text).
CREATE TABLE record_facets (
    entity   TEXT NOT NULL,
    company  TEXT NOT NULL,
    project  TEXT NOT NULL,
    facet    TEXT NOT NULL,
    value    TEXT NOT NULL,
    archived INTEGER NOT NULL,
    records  BIGINT NOT NULL
);
CREATE UNIQUE INDEX record_facets_key_md5 ON record_facets (entity, company, facet, project, md5(value), archived);

-- The facets of one record (type and parent are NULL for models).
CREATE FUNCTION trove_record_facets(tags jsonb, system_tags jsonb, type text, parent text)
    RETURNS TABLE (facet text, value text) LANGUAGE sql IMMUTABLE AS $$
    SELECT f.facet, f.value FROM (
        SELECT 'tags' AS facet, t AS value
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(tags) = 'array' THEN tags ELSE '[]' END) t
        UNION ALL SELECT 'system_tags', t
            FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(system_tags) = 'array' THEN system_tags ELSE '[]' END) t
        UNION ALL SELECT 'type', type
        UNION ALL SELECT 'parent', parent) f
    WHERE f.value IS NOT NULL
$$;

CREATE FUNCTION trove_archived(system_tags jsonb) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN system_tags @> '["archived"]'::jsonb THEN 1 ELSE 0 END
$$;

INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'tasks', t.company, coalesce(t.project, ''), f.facet, f.value, trove_archived(t.system_tags), count(*)
    FROM tasks t, trove_record_facets(t.tags, t.system_tags, t.type, t.parent) f
    GROUP BY 2, 3, 4, 5, 6;
INSERT INTO record_facets (entity, company, project, facet, value, archived, records)
    SELECT 'models', t.company, coalesce(t.project, ''), f.facet, f.value, trove_archived(t.system_tags), count(*)
    FROM models t, trove_record_facets(t.tags, t.system_tags, NULL, NULL) f
    GROUP BY 2, 3, 4, 5, 6;



-- Upkeep, once per statement over its transition tables (a statement
-- writing many rows, a bulk load or projects.merge, pays one call): an
-- insert adds the facets of its rows, a delete takes them away, an update
-- takes away the old rows' and adds the new rows', by the net count per
-- facet (the rows it left as they were cancel out: no join of the two
-- transition tables, which had no index and made a merge quadratic). Rows
-- are upserted in key order, so concurrent writers lock them in the same
-- order.

CREATE FUNCTION trove_task_facets_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'tasks', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, n.type, n.parent) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'tasks', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, o.type, o.parent) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSE
        -- A one-row update that changes none of them (most do) is done.
        IF (SELECT count(*) FROM new_rows) = 1 AND NOT EXISTS (
            SELECT 1 FROM old_rows o, new_rows n WHERE (o.company, o.project, o.tags, o.system_tags, o.type, o.parent) IS DISTINCT FROM (n.company, n.project, n.tags, n.system_tags, n.type, n.parent)) THEN
            RETURN NULL;
        END IF;
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'tasks', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, o.type, o.parent) f
                UNION ALL
                SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, n.type, n.parent) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER tasks_facets_insert AFTER INSERT ON tasks REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_facets_upkeep();
CREATE TRIGGER tasks_facets_update AFTER UPDATE ON tasks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_facets_upkeep();
CREATE TRIGGER tasks_facets_delete AFTER DELETE ON tasks REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_task_facets_upkeep();

CREATE FUNCTION trove_model_facets_upkeep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'models', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, NULL, NULL) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'models', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, NULL, NULL) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    ELSE
        -- A one-row update that changes none of them (most do) is done.
        IF (SELECT count(*) FROM new_rows) = 1 AND NOT EXISTS (
            SELECT 1 FROM old_rows o, new_rows n WHERE (o.company, o.project, o.tags, o.system_tags) IS DISTINCT FROM (n.company, n.project, n.tags, n.system_tags)) THEN
            RETURN NULL;
        END IF;
        INSERT INTO record_facets AS r (entity, company, project, facet, value, archived, records)
            SELECT 'models', d.company, d.project, d.facet, d.value, d.archived, sum(d.delta)
            FROM (SELECT o.company, coalesce(o.project, '') AS project, f.facet, f.value, trove_archived(o.system_tags) AS archived, -1 AS delta
                    FROM old_rows o, trove_record_facets(o.tags, o.system_tags, NULL, NULL) f
                UNION ALL
                SELECT n.company, coalesce(n.project, '') AS project, f.facet, f.value, trove_archived(n.system_tags) AS archived, 1 AS delta
                    FROM new_rows n, trove_record_facets(n.tags, n.system_tags, NULL, NULL) f) d
            GROUP BY 2, 3, 4, 5, 6 HAVING sum(d.delta) <> 0 ORDER BY 2, 4, 3, 5, 6
            ON CONFLICT (entity, company, facet, project, md5(value), archived) DO UPDATE SET records = r.records + excluded.records;
    END IF;
    RETURN NULL;
END
$$;

CREATE TRIGGER models_facets_insert AFTER INSERT ON models REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_model_facets_upkeep();
CREATE TRIGGER models_facets_update AFTER UPDATE ON models REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_model_facets_upkeep();
CREATE TRIGGER models_facets_delete AFTER DELETE ON models REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION trove_model_facets_upkeep();
