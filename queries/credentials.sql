-- The credentials contract (docs/contracts.md): which of the app's users claimed which store purchase.
-- Columns: store (app_store, play, stripe), store_key, user_id, linked_store_key, order_id, claimed_at.
SELECT store, store_key, user_id, linked_store_key, order_id, claimed_at
FROM credentials
ORDER BY store COLLATE "C", store_key COLLATE "C", user_id COLLATE "C"
