-- The credits contract (docs/contracts.md): the app's own ledger of consumable grants (coins, gems…).
-- Columns: credit_id, user_id, store (app_store, play, stripe), transaction_id (the store's: Apple
-- transactionId, Play order id), product_id, quantity (units credited), credited_at, reversed_at (NULL: not
-- taken back). Optional: a run reads it when this file is in the queries folder or the config has app.credits.
SELECT credit_id, user_id, store, transaction_id, product_id, quantity, credited_at, reversed_at
FROM credits
ORDER BY credit_id COLLATE "C"
