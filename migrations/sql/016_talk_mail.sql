-- Table talk by mail (issue 36, part 1). Every mail a player gets about a
-- game carries the table talk they may read and have not been mailed yet;
-- talk_told keeps, per player and game, the version of the game's talk
-- stream (talk-<game id>) their mail has told up to. It is notify's own
-- mark, never served: a reader's messages are numbered among what they
-- may read, so that nothing counts what others said privately.
create table talk_told (
    user_id    text        not null,
    game_id    text        not null,
    told       int         not null,
    updated_at timestamptz not null default now(),
    primary key (user_id, game_id)
);
grant select, insert, update, delete on talk_told to courrier_service;
