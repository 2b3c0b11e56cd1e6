-- The entitlements contract (docs/contracts.md): one row per access grant of the app.
-- Columns: entitlement_id, user_id, product_id, source, store_key, status, starts_at, expires_at, updated_at
-- (source: app_store, play, stripe, goodwill, promo, manual; status: active, grace, billing_retry, on_hold,
-- paused, expired, revoked; expires_at NULL = no end). Adapt the FROM part to your schema; keep the names.
SELECT entitlement_id, user_id, product_id, source, store_key, status, starts_at, expires_at, updated_at
FROM entitlements
ORDER BY entitlement_id COLLATE "C"
