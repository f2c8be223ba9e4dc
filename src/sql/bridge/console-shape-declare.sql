-- The learner's query as it is, declared only to learn its columns (names and types, by FETCH 0): it is
-- never fetched from, so nothing of it is computed or sent through this cursor.
DECLARE lease_lab_console_shape NO SCROLL CURSOR FOR
