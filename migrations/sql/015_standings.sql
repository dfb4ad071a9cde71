-- Standings: ratings and reliability, projections of the log's game-over,
-- timeout and abandonment events and of the players' own moves. One
-- consumer (play's Standings, feed_checkpoints 'standings') writes them in
-- the global feed's (tx, position) order under an advisory lock; `courrier
-- projections rebuild` empties them and replays the feed the same way, so
-- a rebuild writes exactly what the live consumer wrote.

-- ratings: a player's Glicko-2 rating per game title.
create table ratings (
    user_id    text             not null,
    kind       text             not null,
    rating     double precision not null,
    rd         double precision not null,
    volatility double precision not null,
    games      int              not null,
    updated_at timestamptz      not null, -- the recording time of the last game end that moved it
    primary key (user_id, kind)
);
create index ratings_kind on ratings (kind, rating desc);

-- reliability_days: a player's counts per UTC day, summed over a window
-- (12 months) when read.
create table reliability_days (
    user_id   text not null,
    day       date not null,
    finished  int  not null default 0, -- games ended with the player seated
    decisions int  not null default 0, -- moves the player sent (a command counts once)
    missed    int  not null default 0, -- deadlines passed (game.timed_out)
    abandoned int  not null default 0, -- seats marked abandoned (game.abandoned)
    primary key (user_id, day)
);

grant select, insert, update, delete on ratings, reliability_days to courrier_service;
