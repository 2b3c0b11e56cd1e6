-- The goodwill contract (docs/contracts.md): access support granted on purpose.
-- Columns: grant_id, user_id, product_id, starts_at, ends_at, reason.
SELECT grant_id, user_id, product_id, starts_at, ends_at, reason
FROM goodwill
ORDER BY grant_id COLLATE "C"
