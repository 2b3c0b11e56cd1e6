-- The notifications contract (docs/contracts.md#notifications): the server's log of the store notifications
-- it received. Columns: store (app_store, play), notification_id (Apple notificationUUID, Play Pub/Sub
-- messageId), received_at, processed_at (NULL: not processed yet), payload (Apple: the signedPayload JWS or
-- the webhook body {"signedPayload": ...}; Play: the Pub/Sub message or push body with its base64 data).
-- Optional: a run reads it when this file is in the queries folder or the config has app.notifications.
SELECT store, notification_id, received_at, processed_at, payload
FROM notifications
ORDER BY store COLLATE "C", notification_id COLLATE "C"
