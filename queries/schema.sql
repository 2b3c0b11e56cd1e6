-- storerecon's reference schema: one table per contract of docs/contracts.md, holding exactly its columns.
-- `storerecon db init` runs this file; it is idempotent. Identifiers are text, instants timestamptz,
-- no floating types. A team with its own schema skips this file and edits the query files instead.

CREATE TABLE IF NOT EXISTS entitlements (
  entitlement_id text PRIMARY KEY,
  user_id        text NOT NULL,
  product_id     text NOT NULL,
  source         text NOT NULL,  -- app_store, play, stripe, goodwill, promo, manual
  store_key      text,           -- the store purchase it names (chain key or a Play order id)
  status         text NOT NULL,  -- active, grace, billing_retry, on_hold, paused, expired, revoked
  starts_at      timestamptz,
  expires_at     timestamptz,    -- NULL: no end (lifetime unlock)
  updated_at     timestamptz
);
CREATE INDEX IF NOT EXISTS entitlements_user_id ON entitlements (user_id);

CREATE TABLE IF NOT EXISTS credentials (
  store            text NOT NULL,  -- app_store, play, stripe
  store_key        text NOT NULL,
  user_id          text NOT NULL,
  linked_store_key text,
  order_id         text,
  claimed_at       timestamptz,
  PRIMARY KEY (store, store_key, user_id)
);
CREATE INDEX IF NOT EXISTS credentials_user_id ON credentials (user_id);

CREATE TABLE IF NOT EXISTS assignments (
  user_id       text NOT NULL,
  experiment_id text NOT NULL,
  arm_id        text NOT NULL,
  assigned_at   timestamptz NOT NULL,
  PRIMARY KEY (user_id, experiment_id, assigned_at)
);

CREATE TABLE IF NOT EXISTS goodwill (
  grant_id   text PRIMARY KEY,
  user_id    text NOT NULL,
  product_id text NOT NULL,
  starts_at  timestamptz,
  ends_at    timestamptz,
  reason     text
);
CREATE INDEX IF NOT EXISTS goodwill_user_id ON goodwill (user_id);

CREATE TABLE IF NOT EXISTS credits (
  credit_id      text PRIMARY KEY,
  user_id        text NOT NULL,
  store          text NOT NULL,  -- app_store, play, stripe
  transaction_id text NOT NULL,  -- the store's: Apple transactionId, Play order id
  product_id     text NOT NULL,
  quantity       bigint NOT NULL, -- units credited
  credited_at    timestamptz,
  reversed_at    timestamptz     -- NULL: not taken back
);
CREATE INDEX IF NOT EXISTS credits_transaction ON credits (store, transaction_id);

CREATE TABLE IF NOT EXISTS notifications (
  store           text NOT NULL,  -- app_store, play, stripe
  notification_id text NOT NULL,  -- Apple notificationUUID, Play Pub/Sub messageId, Stripe event id
  received_at     timestamptz NOT NULL,
  processed_at    timestamptz,    -- NULL: not processed yet
  payload         text NOT NULL,  -- Apple signedPayload JWS; Play Pub/Sub message (base64 data); Stripe event JSON
  PRIMARY KEY (store, notification_id)
);
