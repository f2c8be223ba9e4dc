-- Inside the console's read-only transaction only: the learner's statement runs as lease_lab_console.
SET LOCAL ROLE lease_lab_console;
