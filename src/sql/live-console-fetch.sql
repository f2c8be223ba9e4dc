-- At most CONSOLE_ROWS_FETCHED rows (src/sql/console.ts, 1000); the rest are only counted.
FETCH FORWARD 1000 FROM lease_lab_console;
