-- Every logout is announced on the trove_revoked channel, so that other
-- Trove processes on this database drop their cached "not revoked"
-- answer at once (store/cluster.go). The notice is sent at commit.
CREATE FUNCTION trove_notify_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('trove_revoked', NEW.session_id);
    RETURN NEW;
END
$$;

CREATE TRIGGER revoked_sessions_notify AFTER INSERT ON revoked_sessions
    FOR EACH ROW EXECUTE FUNCTION trove_notify_revoked();
