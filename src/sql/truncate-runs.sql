-- Reset: every transaction has ended by now, so TRUNCATE does not wait for anyone.
TRUNCATE runs;
