MOVE FORWARD ALL IN lease_lab_console;
