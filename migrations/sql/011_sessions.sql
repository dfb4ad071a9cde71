-- Sessions kept on the server. A session JWT names its row by id (its
-- `jti`) and is accepted only while the row is open, so signing out ends a
-- session at once, on the web and the API alike, instead of 12 hours later;
-- "sign out everywhere" revokes every open row of an account, and erasing
-- an account revokes its sessions. A row is deleted an hour after it
-- expires (when someone signs in), so the table holds about a day's
-- sessions. Tokens issued before this migration name no session: their
-- holders sign in again.
create table sessions (
    id         text primary key,
    user_id    text        not null references users (id),
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    revoked_at timestamptz
);
create index sessions_user on sessions (user_id) where revoked_at is null;
create index sessions_expiry on sessions (expires_at);

-- The service opens, checks, revokes and forgets sessions; nothing else
-- changes in a row.
grant select, insert, update (revoked_at), delete on sessions to courrier_service;
