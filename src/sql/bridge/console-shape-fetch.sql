-- FETCH 0 before the first row returns no row, only the row description: the columns' names and types.
FETCH FORWARD 0 FROM lease_lab_console_shape;
