-- Has this database already got the lab's schema?
SELECT to_regclass('public.runs') IS NOT NULL AS present;
