-- An append rewrites each series' row (its history grows by a few bytes). With full pages the new row
-- version lands on another page and every index gets a new entry; with half of each page kept free it
-- stays on its page as a heap-only tuple (HOT: no index write, the old version pruned in place).
-- Measured on PGlite, 10,000 rows: the bulk append's UPDATE 250-450 ms -> 60-100 ms (bench/README.md,
-- stored-series). The price is about twice the table's pages. Pages written before this keep their
-- density until rewritten (VACUUM FULL).
ALTER TABLE stored_series SET (fillfactor = 50);
