-- Smaller events (issue 34): the log is converted in place into a compact
-- table, event_log, and `events` becomes a view that reads exactly as the
-- table did (same columns, same types, same text), so that every reader,
-- report and hash is unchanged.
--
-- What shrinks, per event:
-- - the stream is a 4-byte key (streams.id) in the row and in the unique
--   (stream_id, version) index, instead of its name ("game-<id>") twice;
-- - data and meta are json, stored as the writer sent them (compact text),
--   not jsonb (whose binary form is larger than its text for small
--   documents: every number is a numeric); meta's keys are one letter
--   (event_meta); the view casts them back to jsonb with meta's full keys,
--   so readers get the same text as before;
-- - the primary-key index on position is gone (nothing looks an event up by
--   position alone; event_context is joined through a game's stream), and
--   the feed's index is on tx alone (deduplicated when a transaction
--   appends several events; the feed sorts within a transaction by
--   position).
--
-- The hash chain is untouched (event_digest and events.Digest are as they
-- were): an event's hash is still
-- sha256(prev ‖ stream name \n version \n type \n data \n meta \n µs) over
-- the jsonb text forms of data and meta, which are what the view shows.
-- Rows are copied with their hashes, so every hash, receipt and record
-- given out before this migration still verifies; no re-chaining.

-- No event is written while the log is copied: a writer (a server not yet
-- stopped) waits for the migration's end, then finds the view below and
-- writes through it; readers go on reading.
lock table events in exclusive mode;

-- Streams: one row per stream, its key in creation order. An int, not a
-- bigint: two billion games is beyond this service's reach, and the
-- smaller key packs (stream_id, version) into 8 bytes.
create table streams (
    id   int  generated always as identity primary key,
    name text not null unique
);
comment on table streams is 'The key of each stream of the event log (game-<id>, talk-<id>); names never change.';

insert into streams (name)
select stream from events group by stream order by min(position);

-- The compact log. Columns are ordered for alignment: the 8-byte ones,
-- then the two ints, then the variable-length ones.
create table event_log (
    position    bigint      generated always as identity,
    tx          xid8        not null default pg_current_xact_id(),
    recorded_at timestamptz not null default now(),
    stream_id   int         not null, -- streams.id (no foreign key: stream_key makes it, and a key check would lock the stream's row)
    version     int         not null check (version > 0),
    type        text        not null,
    hash        bytea       not null,
    data        json        not null,
    meta        json        not null default '{}',
    primary key (stream_id, version)
);
comment on table event_log is 'Append-only event log, hash-chained per stream; read it through the events view.';

-- Existing rows keep their position, transaction, time and hash; data and
-- meta keep their jsonb text form, which is what the hash covers.
insert into event_log (position, tx, recorded_at, stream_id, version, type, hash, data, meta)
overriding system value
select e.position, e.tx, e.recorded_at, s.id, e.version, e.type, e.hash, e.data::text::json, e.meta::text::json
from events e join streams s on s.name = e.stream
order by e.position;

select setval(pg_get_serial_sequence('event_log', 'position'), coalesce((select max(position) from event_log), 0) + 1, false);

-- event_meta is an event's meta as it reads and is hashed: the writer
-- stores its keys as one letter (a: actor, s: seat, c: channel, r:
-- request_id, k: causation, m: move); rows of before 014 have the full keys
-- already. In JSON text a key is the only string followed by a colon, and a
-- quote inside a string is escaped, so the replacements touch keys only.
create function event_meta(stored json) returns jsonb language sql immutable parallel safe as $$
    select replace(replace(replace(replace(replace(replace(stored::text,
        '"a":', '"actor":'), '"s":', '"seat":'), '"c":', '"channel":'),
        '"r":', '"request_id":'), '"k":', '"causation":'), '"m":', '"move":')::jsonb
$$;

-- Every event was copied and reads back as it did (its data and meta, as
-- the hash covers them, and its hash), or the migration fails.
do $$
declare
    differs bigint;
begin
    if (select count(*) from events) <> (select count(*) from event_log) then
        raise exception 'event_log has % events, events %', (select count(*) from event_log), (select count(*) from events);
    end if;
    select count(*) into differs
    from events o join streams s on s.name = o.stream join event_log n on n.stream_id = s.id and n.version = o.version
    where n.data::jsonb::text <> o.data::text or event_meta(n.meta)::text <> o.meta::text or n.hash <> o.hash
        or n.position <> o.position or n.tx <> o.tx or n.recorded_at <> o.recorded_at or n.type <> o.type;
    if differs > 0 then
        raise exception '% events would read differently after the conversion', differs;
    end if;
end
$$;

drop table events;

-- The feed reads in (tx, position) order: the index finds the transactions,
-- a transaction's few events are sorted by position.
create index event_log_feed on event_log (tx);

-- stream_key returns the key of a stream, recording the stream at its first
-- event. Run per statement, it sees a stream another transaction has just
-- committed; a stream recorded by an append that then fails is rolled back
-- with it.
create function stream_key(stream_name text) returns int language plpgsql as $$
declare
    k int;
begin
    select id into k from streams where name = stream_name;
    if k is null then
        insert into streams (name) values (stream_name) on conflict (name) do nothing returning id into k;
        if k is null then
            select id into k from streams where name = stream_name;
        end if;
    end if;
    return k;
end
$$;

-- events_chain sets the store's columns (tx, recorded_at) and the hash from
-- the stream's previous event, and refuses gaps.
create or replace function events_chain() returns trigger language plpgsql as $$
declare
    prev bytea;
    stream_name text;
begin
    NEW.tx := pg_current_xact_id();
    NEW.recorded_at := now();
    select name into stream_name from streams where id = NEW.stream_id;
    if NEW.version > 1 then
        select e.hash into prev from event_log e where e.stream_id = NEW.stream_id and e.version = NEW.version - 1;
        if prev is null then
            raise exception 'event % of stream % has no predecessor: versions must be consecutive', NEW.version, stream_name
                using errcode = '23514';
        end if;
    end if;
    NEW.hash := event_digest(prev, stream_name, NEW.version, NEW.type, NEW.data::jsonb, event_meta(NEW.meta), NEW.recorded_at);
    return NEW;
end
$$;
create trigger events_chain before insert on event_log for each row execute function events_chain();

-- Append-only, as before: even the owner cannot change or delete an event,
-- nor rename a stream (its name is hashed into every event).
create trigger events_no_update before update or delete on event_log
    for each row execute function events_append_only();
create trigger events_no_truncate before truncate on event_log
    for each statement execute function events_append_only();
create trigger streams_no_update before update or delete on streams
    for each row execute function events_append_only();
create trigger streams_no_truncate before truncate on streams
    for each statement execute function events_append_only();

-- The log as people and reports read it: the columns and types of the old
-- table.
create view events as
select e.position, s.name as stream, e.version, e.type, e.data::jsonb as data, event_meta(e.meta) as meta,
       e.tx, e.recorded_at, e.hash
from event_log e join streams s on s.id = e.stream_id;
comment on view events is 'The event log as it reads: one stream per game (game-<id>); hash chains each stream.';

-- An UPDATE or DELETE through the view reaches the log, where the
-- append-only triggers refuse it (an operator who disables them on
-- event_log, as the tamper tests do, can then alter the log).
create function events_view_write() returns trigger language plpgsql as $$
begin
    if TG_OP = 'DELETE' then
        delete from event_log e using streams s
        where s.id = e.stream_id and s.name = OLD.stream and e.version = OLD.version;
        return OLD;
    end if;
    if (NEW.stream, NEW.version, NEW.position, NEW.tx) is distinct from (OLD.stream, OLD.version, OLD.position, OLD.tx) then
        raise exception 'an event''s stream, version, position and transaction are the store''s: they cannot be changed'
            using errcode = '42501';
    end if;
    update event_log e set type = NEW.type, data = NEW.data::text::json, meta = NEW.meta::text::json,
        hash = NEW.hash, recorded_at = NEW.recorded_at
    from streams s
    where s.id = e.stream_id and s.name = OLD.stream and e.version = OLD.version;
    return NEW;
end
$$;
create trigger events_view_write instead of update or delete on events
    for each row execute function events_view_write();

-- An append through the view (a server of before this migration, still
-- running while it ran) goes to the log as the append path writes it; the
-- chain trigger hashes it as before (event_meta reads full keys as they
-- are).
create function events_view_insert() returns trigger language plpgsql as $$
begin
    insert into event_log as e (stream_id, version, type, data, meta)
    values (stream_key(NEW.stream), NEW.version, NEW.type, NEW.data::text::json, coalesce(NEW.meta, '{}'::jsonb)::text::json)
    returning e.position, e.tx, e.recorded_at, e.hash into NEW.position, NEW.tx, NEW.recorded_at, NEW.hash;
    return NEW;
end
$$;
create trigger events_view_insert instead of insert on events
    for each row execute function events_view_insert();

-- The service reads the log and appends by the data columns only; tx,
-- recorded_at, position and hash are the store's. It may record a new
-- stream, never rename one.
revoke all on event_log, streams, events from public;
grant select on events, event_log, streams to courrier_service;
grant insert (stream_id, version, type, data, meta) on event_log to courrier_service;
grant insert (name) on streams to courrier_service;
grant insert (stream, version, type, data, meta) on events to courrier_service;

-- The planner has statistics of the new tables from the start.
analyze event_log;
analyze streams;
