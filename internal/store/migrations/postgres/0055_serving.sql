-- Serving containers (clearml-serving instances) and their status
-- reports. A container is gone once expires (epoch ms) has passed: its
-- timeout after the last register or status report. endpoint_url is NULL
-- while the container is still loading.
CREATE TABLE serving_containers (
    id           TEXT PRIMARY KEY,
    company      TEXT NOT NULL,
    container_id TEXT NOT NULL,
    endpoint_url TEXT,
    expires      BIGINT NOT NULL,
    doc          JSONB NOT NULL
);
CREATE INDEX serving_containers_company_url ON serving_containers (company, endpoint_url, expires);

-- One row per status report, for the endpoint charts; NULL where the
-- report did not carry the value.
CREATE TABLE serving_stats (
    company          TEXT NOT NULL,
    endpoint_url     TEXT NOT NULL,
    container_id     TEXT NOT NULL,
    ts               BIGINT NOT NULL,
    requests_num     DOUBLE PRECISION,
    requests_min     DOUBLE PRECISION,
    latency_ms       DOUBLE PRECISION,
    uptime_sec       DOUBLE PRECISION,
    cpu_usage        DOUBLE PRECISION,
    cpu_num          DOUBLE PRECISION,
    gpu_usage        DOUBLE PRECISION,
    gpu_num          DOUBLE PRECISION,
    memory_used      DOUBLE PRECISION,
    memory_free      DOUBLE PRECISION,
    memory_total     DOUBLE PRECISION,
    gpu_memory_used  DOUBLE PRECISION,
    gpu_memory_free  DOUBLE PRECISION,
    gpu_memory_total DOUBLE PRECISION,
    network_rx       DOUBLE PRECISION,
    network_tx       DOUBLE PRECISION
);
CREATE INDEX serving_stats_company_url_ts ON serving_stats (company, endpoint_url, ts);
CREATE INDEX serving_stats_company_ts ON serving_stats (company, ts);
