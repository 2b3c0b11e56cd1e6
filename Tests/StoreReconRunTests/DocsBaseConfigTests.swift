import Testing

@testable import StoreReconCore
@testable import StoreReconRun

/// The config's `docsBaseURL` (docs/config.md#the-config-file): what the reports' docs links start with.
@Suite struct DocsBaseConfigTests {
  typealias C = CreditConfigTests

  @Test func defaultsToTheDocsFolder() throws {
    let config = try C.parse(#"{"app": {"entitlements": "e.csv"}}"#)
    #expect(config.docsBaseURL == "docs/")
    #expect(config.docsBaseURL == NextStep.defaultDocsBase)
  }

  @Test func aTeamSetsItsHostedCopy() throws {
    let config = try C.parse(
      #"{"app": {"entitlements": "e.csv"}, "docsBaseURL": "https://wiki.example.com/sr/docs/", "timeZone": "Europe/Berlin"}"#
    )
    #expect(config.docsBaseURL == "https://wiki.example.com/sr/docs/")
    #expect(config.timeZone == "Europe/Berlin")
  }

  @Test func anythingButTextIsRefused() {
    #expect(C.failure(#"{"docsBaseURL": 3}"#)?.contains("docsBaseURL must be a non-empty text") == true)
    #expect(C.failure(#"{"docsBaseURL": ""}"#)?.contains("docsBaseURL must be a non-empty text") == true)
    #expect(C.failure(#"{"timeZone": "Mars/Olympus"}"#)?.contains("timeZone must be an IANA") == true)
  }
}
