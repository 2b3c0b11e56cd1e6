import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconRun

/// The config keys of the credit rules and double billing: `app.credits`, `creditGraceHours` and the
/// catalog's `units` and `tier`.
@Suite struct CreditConfigTests {
  static func parse(_ json: String) throws(RunError) -> RunConfig {
    let object = try? JSONSerialization.jsonObject(with: Data(json.utf8))
    guard let root = object as? [String: Any] else { throw RunError(.config, "test JSON is not an object") }
    return try RunConfig.parse(root, baseDirectory: "/base", name: "c.json")
  }

  static func failure(_ json: String) -> String? {
    do {
      _ = try parse(json)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func defaultsWithoutTheKeys() throws {
    let config = try Self.parse(#"{"app": {"entitlements": "e.csv"}}"#)
    #expect(config.credits == nil)
    #expect(!config.readsCredits)
    #expect(config.creditGraceHours == 6)
    #expect(config.catalog.tier("com.acme.pro.monthly", store: .appStore) == "app_store:com.acme.pro.monthly")
    #expect(config.catalog.units("com.acme.coins100", store: .appStore) == nil)
  }

  @Test func parsesCreditsGraceUnitsAndTier() throws {
    let config = try Self.parse(
      #"""
      {"app": {"entitlements": "e.csv", "credits": "app/credits.csv"}, "creditGraceHours": 12,
       "catalog": {"com.acme.coins100": {"type": "consumable", "units": 100},
                   "play:pro:monthly": {"type": "subscription", "tier": "pro"},
                   "pro:monthly": {"tier": "basic"}}}
      """#)
    #expect(config.credits == "app/credits.csv")
    #expect(config.readsCredits)
    #expect(config.creditGraceHours == 12)
    #expect(config.unknownKeys.isEmpty)
    #expect(config.catalog.units("com.acme.coins100", store: .appStore) == 100)
    #expect(config.catalog.product("com.acme.coins100", store: .appStore)?.type == .consumable)
    // A store-prefixed entry wins over the bare one.
    #expect(config.catalog.tier("pro:monthly", store: .play) == "pro")
    #expect(config.catalog.tier("pro:monthly", store: .appStore) == "basic")
  }

  @Test func creditsTrueAsksForTheQuery() throws {
    let config = try Self.parse(#"{"app": {"database": "postgresql:///x", "credits": true}}"#)
    #expect(config.readsCredits)
    #expect(config.credits == nil)
    #expect(!(try Self.parse(#"{"app": {"database": "postgresql:///x", "credits": false}}"#)).readsCredits)
  }

  @Test func wrongValuesAreOneClearLine() {
    #expect(
      Self.failure(#"{"app": {"credits": 3}}"#)
        == "config c.json: app.credits must be a path (or true, with a database)")
    #expect(
      Self.failure(#"{"creditGraceHours": -1}"#)
        == "config c.json: creditGraceHours must be a non-negative whole number")
    #expect(
      Self.failure(#"{"creditGraceHours": true}"#)
        == "config c.json: creditGraceHours must be a non-negative whole number")
    #expect(
      Self.failure(#"{"catalog": {"c": {"units": 0}}}"#)
        == "config c.json: catalog.c.units must be a whole number of at least 1")
    #expect(
      Self.failure(#"{"catalog": {"c": {"units": 1.5}}}"#)
        == "config c.json: catalog.c.units must be a whole number of at least 1")
    #expect(
      Self.failure(#"{"catalog": {"p": {"tier": ""}}}"#)
        == "config c.json: catalog.p.tier must be a non-empty text such as \"pro\"")
    #expect(
      Self.failure(#"{"catalog": {"p": {"tier": 2}}}"#)
        == "config c.json: catalog.p.tier must be a non-empty text such as \"pro\"")
  }
}
