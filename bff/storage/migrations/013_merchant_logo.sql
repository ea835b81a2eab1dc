-- A merchant's logo (shown in the checkout's header and on its hosted pages instead of initials) is set by the
-- merchant CLI (`npm run merchant -- logo`). The column exists since 001; only an https address may be stored:
-- the pages and the frame load it under `img-src https:`, and a plain-http image on an https page is mixed content.
UPDATE merchants SET logo_url = NULL WHERE logo_url IS NOT NULL AND logo_url !~ '^https://';
ALTER TABLE merchants ADD CONSTRAINT merchants_logo_url_https CHECK (logo_url IS NULL OR (logo_url ~ '^https://' AND length(logo_url) <= 2048));
