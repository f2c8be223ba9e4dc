-- The role the bridge connected as, named in the console's refusal when it cannot set up lease_lab_console.
SELECT session_user AS name;
