-- Mail that reaches other people needs a sender who proved their address.
-- users.confirmed_at is when the account's owner proved they read mail at
-- its address: a sign-in link used, a confirmation mail answered, or a mail
-- whose DMARC pass the trusted relay vouched for. A mail command that makes
-- courrier write to anyone but its sender (a new game with invitees) waits
-- in pending_commands until its sender is confirmed, for a day at most.
-- first_contact_mail counts the mail courrier sends to addresses not (yet)
-- confirmed (confirmation mails, answers to strangers), so that forged
-- senders cannot make it mail anyone more than the budgets allow.
alter table users add column confirmed_at timestamptz;
-- bounced_at: the relay said the address's mailbox is gone (5.1.x); courrier
-- writes there no more (sign-in links aside) until its owner signs in or
-- writes to courrier.
alter table users add column bounced_at timestamptz;
grant update (confirmed_at, bounced_at) on users to courrier_service;

-- Accounts that already proved their address keep working: they used a
-- sign-in link.
update users u set confirmed_at = now()
where exists (select 1 from login_links l where l.user_id = u.id and l.used_at is not null);

create table pending_commands (
    id         bigint generated always as identity primary key,
    user_id    text        not null references users (id),
    inbound_id bigint      not null unique references inbound_mail (id) on delete cascade,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    done_at    timestamptz,
    outcome    text
);
create index pending_commands_user on pending_commands (user_id, created_at);
grant select, insert, update (done_at, outcome), delete on pending_commands to courrier_service;

create table first_contact_mail (
    message_id text        primary key, -- a retried mail is counted once
    recipient  text        not null,
    sent_at    timestamptz not null default now()
);
create index first_contact_mail_recipient on first_contact_mail (lower(recipient), sent_at);
create index first_contact_mail_sent on first_contact_mail (sent_at);
grant select, insert, delete on first_contact_mail to courrier_service;
