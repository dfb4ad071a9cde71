-- A player's time zone (IANA name, "Europe/Paris"): deadlines in their mail
-- are written in it. Empty: UTC.
alter table users add column time_zone text check (time_zone is null or char_length(time_zone) between 1 and 64);
grant update (time_zone) on users to courrier_service;
