-- The console's statement runs alone in a read-only transaction that is always rolled back.
BEGIN READ ONLY;
