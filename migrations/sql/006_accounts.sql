-- Accounts for the HTTP API: a display name, magic sign-in links and
-- personal API tokens. Secrets are never stored: a link's secret is derived
-- from its id with a key kept outside the database, and only its SHA-256 is
-- kept here (to find the link); an API token's secret is random and only its
-- SHA-256 is kept.

alter table users add column name text check (name is null or char_length(name) between 1 and 40);
grant update (name) on users to courrier_service;

create table login_links (
    id         bigint generated always as identity primary key,
    user_id    text        not null references users (id),
    hash       bytea unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at    timestamptz
);
create index login_links_user on login_links (user_id, created_at);
grant select, insert, update (hash, used_at), delete on login_links to courrier_service;
grant usage, select on sequence login_links_id_seq to courrier_service;

create table api_tokens (
    id           text primary key,
    user_id      text        not null references users (id),
    name         text        not null check (char_length(name) between 1 and 80),
    hash         bytea       not null unique,
    created_at   timestamptz not null default now(),
    last_used_at timestamptz,
    revoked_at   timestamptz
);
create index api_tokens_user on api_tokens (user_id, created_at);
grant select, insert, update (last_used_at, revoked_at), delete on api_tokens to courrier_service;
