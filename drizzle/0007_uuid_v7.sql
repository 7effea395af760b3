-- Time-ordered UUIDs (version 7) made inside SQL, for rows inserted by INSERT … SELECT (webhook deliveries fanned
-- out from an event): the first 48 bits are the Unix time in milliseconds of `at`, the rest random, version 7.
CREATE OR REPLACE FUNCTION uuid_v7(at timestamptz) RETURNS uuid AS $$
  SELECT encode(
    set_bit(
      set_bit(
        overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3) FROM 1 FOR 6),
        52, 1),
      53, 1),
    'hex')::uuid
$$ LANGUAGE sql VOLATILE;
