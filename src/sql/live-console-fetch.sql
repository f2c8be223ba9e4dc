-- At most as many rows as the console shows (1000); the rest are only counted.
FETCH FORWARD 1000 FROM lease_lab_console;
