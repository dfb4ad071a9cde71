-- A mail that will never be delivered: the relay refused it for good (a 5xx
-- answer), or it was still undelivered at its job's last attempt. The
-- operator sees these with `courrier mail list -failed`.
alter table mail_log add column failed_at timestamptz;
create index mail_log_failed on mail_log (failed_at) where failed_at is not null;

-- A mail logged (its sending begun) and then not sent because it no longer
-- applies: the prompt's turn was played meanwhile (through another channel,
-- or by the deadline's default), the invited player joined. It says why.
alter table mail_log add column skipped text;
