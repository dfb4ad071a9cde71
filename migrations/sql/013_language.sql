-- A player's language ("fr", "en"): their mail, pages and the API's
-- messages are written in it. Null: not chosen yet (English until the
-- language of a mail command or a browser's Accept-Language sets it).
alter table users add column language text check (language is null or language ~ '^[a-z]{2,3}$');
grant update (language) on users to courrier_service;
