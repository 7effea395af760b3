-- The row counts of a statement's guarded writes (data-modifying CTEs: a single-use approval marked used, a
-- compare-and-set, an insert that must not conflict), checked inside the statement: when one differs from what it
-- must be, the statement fails with SQLSTATE IA001 and nothing it wrote stays. So a change sent as one statement
-- outside an explicit transaction is still all or nothing (src/db/pending-writes.ts). `expected` holds null where
-- any count will do. DETAIL carries the counts, so the caller can name the write that did not take effect.
CREATE OR REPLACE FUNCTION require_counts(counts int[], expected int[]) RETURNS int[] AS $$
BEGIN
  FOR i IN 1 .. coalesce(array_length(counts, 1), 0) LOOP
    IF expected[i] IS NOT NULL AND counts[i] IS DISTINCT FROM expected[i] THEN
      RAISE EXCEPTION USING ERRCODE = 'IA001', MESSAGE = format('write %s affected %s rows, not %s', i - 1, counts[i], expected[i]), DETAIL = array_to_json(counts)::text;
    END IF;
  END LOOP;
  RETURN counts;
END
$$ LANGUAGE plpgsql VOLATILE;
