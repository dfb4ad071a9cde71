-- Trust boundaries. `courrier migrate` runs as the owner of the schema;
-- `courrier serve` connects as a login role that is a member of
-- courrier_service, which may only do what the service does.

-- The service appends events by naming their data columns only: position
-- (an identity), tx, recorded_at and hash are the store's. The trigger sets
-- tx and recorded_at itself, so that no writer can place an event where a
-- feed reader already past it would never see it.
revoke all on events from courrier_service;
grant select on events to courrier_service;
grant insert (stream, version, type, data, meta) on events to courrier_service;

create or replace function events_chain() returns trigger language plpgsql as $$
declare
    prev bytea;
begin
    NEW.tx := pg_current_xact_id();
    NEW.recorded_at := now();
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

-- Seeds are sealed (AES-256-GCM) with a key kept outside the database; the
-- clear column is emptied by the service at its next start.
alter table game_secrets alter column seed drop not null;
alter table game_secrets drop constraint if exists game_secrets_seed_check;
alter table game_secrets add column sealed bytea;
alter table game_secrets add column key_id text;
alter table game_secrets add constraint game_secrets_one_form check ((seed is null) <> (sealed is null));
revoke all on game_secrets from courrier_service;
grant select, insert on game_secrets to courrier_service;
grant update (seed, sealed, key_id, revealed_at) on game_secrets to courrier_service;

-- The service reads the schema version to refuse to run on an old schema.
grant select on schema_version to courrier_service;
grant select, insert, update on feed_checkpoints to courrier_service;

-- Nothing else: no DDL (the service owns nothing), no TRUNCATE, no UPDATE or
-- DELETE on events; session_replication_role is a superuser's setting.
revoke create on schema public from public;
