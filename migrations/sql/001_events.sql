-- The event store: one immutable, hash-chained row per event; one stream per game.

create table events (
    position    bigint generated always as identity primary key,
    stream      text        not null,
    version     int         not null check (version > 0),
    type        text        not null,
    data        jsonb       not null,
    meta        jsonb       not null default '{}',
    tx          xid8        not null default pg_current_xact_id(),
    recorded_at timestamptz not null default now(),
    hash        bytea       not null,
    unique (stream, version)
);

-- The global feed reads in (tx, position) order.
create index events_feed on events (tx, position);

comment on table events is 'Append-only event log. One stream per game (game-<id>); hash chains each stream.';

-- event_digest is the hash of one event: sha256(previous hash ‖ canonical bytes).
-- The canonical bytes are the fields joined by newlines, jsonb in its text form and the
-- recording time in microseconds since the epoch. events.VerifyStream recomputes it in Go.
create function event_digest(prev bytea, stream text, version int, type text, data jsonb, meta jsonb, recorded_at timestamptz)
returns bytea language sql immutable as $$
    select sha256(coalesce(prev, ''::bytea) || convert_to(
        stream || E'\n' || version::text || E'\n' || type || E'\n' || data::text || E'\n' ||
        meta::text || E'\n' || (extract(epoch from recorded_at) * 1000000)::bigint::text, 'UTF8'))
$$;

-- events_chain fills hash from the stream's previous event and refuses gaps.
create function events_chain() returns trigger language plpgsql as $$
declare
    prev bytea;
begin
    if NEW.version > 1 then
        select e.hash into prev from events e where e.stream = NEW.stream and e.version = NEW.version - 1;
        if prev is null then
            raise exception 'event % of stream % has no predecessor: versions must be consecutive', NEW.version, NEW.stream
                using errcode = '23514';
        end if;
    end if;
    NEW.hash := event_digest(prev, NEW.stream, NEW.version, NEW.type, NEW.data, NEW.meta, NEW.recorded_at);
    return NEW;
end
$$;

create trigger events_chain before insert on events for each row execute function events_chain();

-- events_append_only rejects every change to recorded events.
create function events_append_only() returns trigger language plpgsql as $$
begin
    raise exception 'the event log is append-only: % on events is not allowed', TG_OP
        using errcode = '42501', hint = 'record a new event that corrects the old one instead';
end
$$;

create trigger events_no_update before update or delete on events
    for each row execute function events_append_only();
create trigger events_no_truncate before truncate on events
    for each statement execute function events_append_only();

-- Wake feed readers; they poll as a fallback.
create function events_notify() returns trigger language plpgsql as $$
begin
    perform pg_notify('courrier_events', '');
    return null;
end
$$;

create trigger events_notify after insert on events for each statement execute function events_notify();

-- Checkpoints of asynchronous feed consumers: the last (tx, position) pair handled.
create table feed_checkpoints (
    consumer   text   primary key,
    tx         xid8   not null,
    position   bigint not null,
    updated_at timestamptz not null default now()
);

-- Game seeds, apart from the events: the creation event publishes sha256(seed); the
-- seed is revealed by an event when the game ends.
create table game_secrets (
    game_id     text primary key,
    seed        bytea not null check (length(seed) = 32),
    revealed_at timestamptz
);

-- Idempotency: a command carrying a key records its result; a retry returns it.
create table command_keys (
    key        text primary key,
    game_id    text not null,
    result     jsonb not null,
    created_at timestamptz not null default now()
);

-- The service role may read and append events and nothing else on them.
do $$
begin
    if not exists (select from pg_roles where rolname = 'courrier_service') then
        create role courrier_service nologin;
    end if;
end
$$;
revoke all on events from public;
grant select, insert on events to courrier_service;
