-- The command line's worker sessions (--statement-timeout): the server itself stops a statement of theirs
-- that runs longer than $1 milliseconds (a claim that never ends), with SQLSTATE 57014.
SELECT set_config('statement_timeout', $1, false);
