-- Invitees who have not taken their seat yet, so that a game someone was
-- invited to is in their list of games before they join.
alter table games add column invited text[] not null default '{}';
create index games_invited on games using gin (invited);
