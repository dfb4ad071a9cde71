-- The command path at full speed, and a log ready for people.

-- No NOTIFY on the append path: PostgreSQL serialises the commits of every
-- transaction that queued one. Feed readers poll (events.Watcher).
drop trigger events_notify on events;
drop function events_notify();

-- People are opaque user ids everywhere in the log and the projections; their
-- addresses live here, outside the hash chain, so that an address can change
-- and an account be erased without touching the log.
create table users (
    id         text primary key,
    email      text,
    created_at timestamptz not null default now(),
    erased_at  timestamptz,
    check ((email is null) = (erased_at is not null))
);
create unique index users_email on users (lower(email)) where email is not null;
grant select, insert, update (email, erased_at) on users to courrier_service;

-- What arrived with a command and is personal or erasable: the remote
-- address, the inbound mail's Message-ID, sender and authentication
-- results. Keyed by the position of the command's first event; never hashed.
create table event_context (
    position    bigint primary key,
    stream      text not null,
    user_id     text, -- whose context it is, so that erasing an account erases it

    remote_addr text,
    message_id  text,
    sender      text,
    mail_auth   text,
    recorded_at timestamptz not null default now()
);
create index event_context_stream on event_context (stream);
create index event_context_user on event_context (user_id);
grant select, insert, delete on event_context to courrier_service;

-- Idempotency keys, reserved before the work: tied to the user, the game and
-- a hash of the command, and expiring. The old table held no data that
-- outlives a retry, so it is replaced.
drop table command_keys;
create table command_keys (
    user_id      text        not null,
    key          text        not null,
    game_id      text        not null,
    command_hash bytea       not null,
    result       jsonb,
    created_at   timestamptz not null default now(),
    expires_at   timestamptz not null,
    primary key (user_id, key)
);
create index command_keys_expiry on command_keys (expires_at);
grant select, insert, update, delete on command_keys to courrier_service;

-- Projections: the players' user ids apart from the served players list (for
-- "my games"), the compact legal list of each seat, and views written only
-- when they change (seat_views.version is the version a view was last
-- written at; games.version is the game's).
alter table games add column user_ids text[] not null default '{}';
create index games_user_ids on games using gin (user_ids);
alter table seat_views add column choices jsonb not null default '[]';
update games set players = coalesce((select jsonb_agg(p - 'user') from jsonb_array_elements(players) p), '[]');
