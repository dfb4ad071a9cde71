-- A player's language ("fr", "en"): their mail, pages and the API's
-- messages are written in it. language is the one they chose (null: not
-- chosen); noted_language the one courrier noted before they chose (the
-- language of their first mail command, or of the browser they first
-- signed in with), which a command's own language or a browser's
-- Accept-Language still overrides (decision 5's order).
alter table users add column language text check (language is null or language ~ '^[a-z]{2,3}$');
alter table users add column noted_language text check (noted_language is null or noted_language ~ '^[a-z]{2,3}$');
grant update (language, noted_language) on users to courrier_service;
