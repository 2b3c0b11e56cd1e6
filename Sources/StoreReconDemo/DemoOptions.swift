package import StoreReconCore

/// What demo world to generate: how many users, from which seed, as of which day.
package struct DemoOptions: Sendable {
  /// Number of app users (`u0000001` …). Planted problems scale with it (about one of each per 1000).
  package var users: Int = 5000
  /// Seed of the generator: the same seed gives byte-identical files.
  package var seed: UInt64 = 42
  /// The day the exports end; T is the start of the next day (UTC).
  package var asOf: CivilDate = CivilDate(year: 2026, month: 11, day: 29)
  /// Render the world the way real exports look (docs/benchmark.md#the-realistic-world): UUID and long
  /// opaque user ids, every current Apple payload field in varying key order and spacing, fuller Play
  /// resources, mixed timestamp forms, chains back to mid-2022 and several products per user. The
  /// planted findings and the truth files follow; `false` (the default) writes the classic demo world.
  package var realistic = false
  /// Write the app's notification log and Apple's notification history (docs/notifications.md), and
  /// name them in the config. The realistic world never has them (the DuckDB rival has no such rules).
  package var notificationLog = true
  /// Write every App Store line of the realistic world as a compact JWS with its `x5c` chain, as
  /// `storerecon fetch` keeps them (the same world otherwise: the same random choices), and require
  /// signatures in the config (docs/benchmark.md#the-all-jws-world).
  package var allJWS = false
  /// Stripe's API shape of the web subscriptions (the classic world with a notification log, from
  /// 1,000 users): a mix by default, or all in one shape.
  package var stripeShape: DemoStripeShape = .mixed

  /// Whether the world has a notification log.
  package var writesNotificationLog: Bool { notificationLog && !realistic }

  /// Whether the world has Stripe web subscriptions: the classic world with a notification log, from
  /// 1,000 users.
  package var writesStripe: Bool { writesNotificationLog && users >= 1000 }

  /// Creates the default options (5000 users, seed 42, as of 2026-11-29).
  package init() {}
}
