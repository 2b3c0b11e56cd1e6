import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconRun

/// Every key of the config at every depth is known, or the config is refused with the key's path and
/// the one probably meant.
struct ConfigSchemaTests {
  static func load(_ json: String) throws -> RunError? {
    let dir = try TempDir()
    let path = try dir.write("storerecon.json", json)
    do {
      _ = try RunConfig.load(path: path)
      return nil
    } catch {
      return error
    }
  }

  @Test func aTypoInANestedKeyIsRefusedWithTheKeyMeant() throws {
    let cases: [(String, String)] = [
      (
        #"{"play": {"sale": ["s.csv"]}, "app": {"entitlements": "e.csv"}}"#,
        "unknown key 'play.sale' — did you mean 'sales'?"
      ),
      (
        #"{"app": {"entitlements": "e.csv", "credential": "c.csv"}}"#,
        "unknown key 'app.credential' — did you mean 'credentials'?"
      ),
      (
        #"{"app": {"entitlements": "e.csv"}, "appStore": {"salesReport": ["S_D_*.txt"]}}"#,
        "unknown key 'appStore.salesReport' — did you mean 'salesReports'?"
      ),
      (
        #"{"app": {"entitlements": "e.csv"}, "experiments": [{"id": "x", "arms": [{"id": "a", "wieght": 1}]}]}"#,
        "unknown key 'experiments[0].arms[0].wieght' — did you mean 'weight'?"
      ),
      (
        #"{"app": {"entitlements": "e.csv"}, "alerts": {"free_entitlement": {"maxcount": 1}}}"#,
        "unknown key 'alerts.free_entitlement.maxcount' — did you mean 'maxCount'?"
      ),
      (
        #"{"app": {"entitlements": "e.csv"}, "catalog": {"pro": {"kind": "subscription"}}}"#,
        "unknown key 'catalog.pro.kind' (known here: period, tier, type, units)"
      ),
    ]
    for (json, message) in cases {
      let error = try Self.load(json)
      #expect(error?.code == .config, "\(json)")
      #expect(error?.message.hasSuffix(message) == true, "\(error?.message ?? "no error") for \(json)")
    }
  }

  @Test func knownKeysAtEveryDepthPass() throws {
    let json = #"""
      {"timeZone": "UTC",
       "appStore": {"transactions": ["a.jsonl"], "salesReports": ["S_D_*.txt"], "reportTimeZone": "America/Los_Angeles"},
       "play": {"sales": ["s.csv"], "earnings": ["PlayApps_*.csv"]},
       "app": {"entitlements": "e.csv", "credits": "c.csv"}, "graceDays": {"play": 10}, "creditGraceHours": 6,
       "catalog": {"pro": {"type": "subscription", "period": "P1M", "tier": "pro"}, "coins": {"units": 100}},
       "alerts": {"free_entitlement": {"maxCount": 1, "maxAmount": {"USD": 100}}}}
      """#
    #expect(try Self.load(json) == nil)
  }

  @Test func closestKeyNeedsASmallDistance() {
    #expect(ConfigSchema.closest(to: "sale", among: ["sales", "voided"]) == "sales")
    #expect(ConfigSchema.closest(to: "xyz", among: ["sales", "voided"]) == nil)
    #expect(ConfigSchema.distance("kitten", "sitting") == 3)
    // Two letters swapped are one edit (optimal string alignment).
    #expect(ConfigSchema.distance("rnu", "run") == 1)
    #expect(ConfigSchema.distance("--no-hsitory", "--no-history") == 1)
    #expect(ConfigSchema.distance("ca", "abc") == 3)
    #expect(ConfigSchema.distance("", "abc") == 3)
    #expect(ConfigSchema.closest(to: "rnu", among: ["run", "merge", "demo"]) == "run")
  }
}
