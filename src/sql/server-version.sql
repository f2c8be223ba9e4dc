SELECT current_setting('server_version_num')::integer AS version_num,
       current_setting('server_version') AS version;
