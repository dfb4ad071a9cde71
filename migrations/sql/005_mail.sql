-- Email. The outbox is River's job table (river_job, created by rivermigrate
-- before these files run): a mail job is inserted in the transaction of the
-- events that cause it. These tables are what mail leaves behind.

-- River's tables, for the service role: it inserts, locks, completes and
-- cleans jobs, and elects a leader. The owner keeps the schema.
grant select, insert, update, delete on river_job, river_leader, river_queue, river_notification to courrier_service;
grant select on river_migration to courrier_service;
grant usage, select on sequence river_job_id_seq, river_notification_id_seq to courrier_service;

-- Every mail courrier sent or is sending, by its stable Message-ID: a retried
-- job finds sent_at and sends nothing twice.
create table mail_log (
    message_id text primary key,
    kind       text        not null,
    game_id    text,
    user_id    text,         -- whose mail it is (erasing an account erases its mail)
    recipient  text        not null,
    subject    text        not null,
    created_at timestamptz not null default now(),
    sent_at    timestamptz,
    attempts   int         not null default 0,
    last_error text
);
create index mail_log_recipient on mail_log (lower(recipient), kind, created_at);
create index mail_log_user on mail_log (user_id);
grant select, insert, update, delete on mail_log to courrier_service;

-- The dev mailbox: with no relay configured, mail is delivered here.
create table dev_mail (
    id          bigserial primary key,
    message_id  text        not null,
    mail_from   text        not null,
    rcpt        text[]      not null,
    subject     text        not null,
    raw         bytea       not null,
    created_at  timestamptz not null default now()
);
grant select, insert, delete on dev_mail to courrier_service;
grant usage, select on sequence dev_mail_id_seq to courrier_service;

-- Inbound mail as received by the SMTP server, deduplicated by Message-ID;
-- a job (mail.inbound) processes each row once.
create table inbound_mail (
    id           bigserial primary key,
    message_id   text        not null,
    rcpt         text        not null,
    mail_from    text        not null, -- the envelope sender; '' for <>
    remote_addr  text,
    raw          bytea       not null,
    received_at  timestamptz not null default now(),
    processed_at timestamptz,
    sender       text,       -- the From address, once read
    game_id      text,       -- the game it was about, once read
    outcome      text        -- what processing did, in words
);
create unique index inbound_mail_message on inbound_mail (message_id, rcpt);
create index inbound_mail_sender on inbound_mail (lower(sender), received_at);
grant select, insert, update, delete on inbound_mail to courrier_service;
grant usage, select on sequence inbound_mail_id_seq to courrier_service;

-- Mail preferences: a player × a game ('' for all games) × a kind ('' for
-- all kinds). The one-click unsubscribe link of a game's mail turns that
-- game's mail off for that player; the game goes on.
create table mail_preferences (
    user_id    text        not null,
    game_id    text        not null default '',
    kind       text        not null default '',
    enabled    boolean     not null,
    updated_at timestamptz not null default now(),
    primary key (user_id, game_id, kind)
);
grant select, insert, update, delete on mail_preferences to courrier_service;
