-- Inline projections, written in the append transaction and rebuilt from the log by
-- `courrier projections rebuild`.

-- games: one row per game for lists, lobbies and inboxes.
create table games (
    id          text primary key,
    kind        text        not null,
    status      text        not null check (status in ('open', 'active', 'finished')),
    options     jsonb       not null,
    players     jsonb       not null default '[]', -- [{name, user, seat}] in seat order once started
    to_act      jsonb       not null default '[]', -- public pending entries: [{seat, kind, rule}]
    result      jsonb,
    version     int         not null,
    created_at  timestamptz not null,
    updated_at  timestamptz not null
);
create index games_status on games (status, updated_at desc);

-- seat_views: what each seat (and -1, the spectator) may see, at the game's version.
create table seat_views (
    game_id text  not null references games (id),
    seat    int   not null check (seat >= -1),
    version int   not null,
    view    jsonb not null,
    legal   jsonb not null default '[]',
    primary key (game_id, seat)
);

grant select, insert, update on games, seat_views to courrier_service;
grant select, insert on game_secrets, command_keys to courrier_service;
grant update (revealed_at) on game_secrets to courrier_service;
grant select, insert, update on feed_checkpoints to courrier_service;
