-- trove_num of 0001 lost its regex: the runner rebinds question marks to
-- parameters, and an apostrophe in an earlier comment hid that they were
-- inside a literal, so it returned NULL for every string. Same function,
-- spelled without question marks (numeric order of metadata, hyperparams).
CREATE OR REPLACE FUNCTION trove_num(t text) RETURNS double precision AS $$
    SELECT CASE WHEN t ~ '^\s*[-+]{0,1}([0-9]+\.{0,1}[0-9]*|\.[0-9]+)([eE][-+]{0,1}[0-9]+){0,1}\s*$' THEN t::double precision END
$$ LANGUAGE sql IMMUTABLE;
