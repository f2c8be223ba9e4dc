VACUUM runs;
