-- The job that last tried to send a mail: a mail whose job ended without
-- delivering it (discarded after its last attempt, or by River's rescuer
-- after its process died once too often) is listed as failed, not as
-- "trying" for ever.
alter table mail_log add column job_id bigint;
