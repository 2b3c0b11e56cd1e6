import Foundation
import Testing

@testable import StoreReconRun

/// A key written twice in one object of the config is refused (JSON lets it through, and a parser would
/// keep one of the two values without a word): one line naming the key and the file, exit code 78.
struct RepeatedConfigKeyTests {
  @Test func aKeyWrittenTwiceIsRefusedNamingTheKeyAndTheFile() throws {
    let cases: [(String, String)] = [
      (#"{"app": {"entitlements": "e.csv"}, "timeZone": "UTC", "timeZone": "Europe/Berlin"}"#, "timeZone"),
      (#"{"app": {"entitlements": "e.csv", "entitlements": "other.csv"}}"#, "app.entitlements"),
      (
        #"{"app": {"entitlements": "e.csv"}, "experiments": [{"id": "x", "arms": [{"id": "a", "id": "b"}]}]}"#,
        "experiments[0].arms[0].id"
      ),
    ]
    for (json, key) in cases {
      let error = try #require(try ConfigSchemaTests.load(json), "\(key) written twice was accepted")
      #expect(error.code == .config)
      #expect(error.message.contains("key '\(key)' appears twice"), "\(error.message)")
      #expect(error.message.contains("storerecon.json"), "\(error.message)")
      #expect(!error.message.contains("\n"))
    }
  }

  @Test func theSameKeyInTwoObjectsIsNoRepeat() throws {
    let json = #"""
      {"app": {"entitlements": "e.csv"},
       "alerts": {"free_entitlement": {"maxCount": 1}, "orphaned_charge": {"maxCount": 1}}}
      """#
    #expect(try ConfigSchemaTests.load(json) == nil)
  }
}
