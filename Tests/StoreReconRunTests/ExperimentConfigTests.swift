import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconRun

/// The config keys of the price-experiment readout: parsed with defaults, refused with one clear line.
@Suite struct ExperimentConfigTests {
  static func parse(_ json: String) throws(RunError) -> RunConfig {
    let object = try? JSONSerialization.jsonObject(with: Data(json.utf8))
    guard let root = object as? [String: Any] else { throw RunError(.config, "test JSON is not an object") }
    return try RunConfig.parse(root, baseDirectory: "/base", name: "c.json")
  }

  /// The error `json` is refused with, if any.
  static func failure(_ json: String) -> RunError? {
    do {
      _ = try parse(json)
      return nil
    } catch {
      return error
    }
  }

  static func config(_ extra: String) -> String {
    #"{"app": {"entitlements": "e.csv"}, "reportingCurrency": "USD", "note": 0"# + extra + "}"
  }

  static let experiment = #"""
    "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15",
      "arms": [{"id": "control", "weight": 1, "products": ["com.acme.pro.monthly", "play:pro:monthly"]},
               {"id": "high", "weight": 2, "products": ["app_store:com.acme.pro.monthly.hi", "pro:monthly-hi"]}]}]
    """#

  @Test func parsesExperimentsWithDefaults() throws {
    let config = try Self.parse(Self.config(", " + Self.experiment + #", "fxRates": "fx/rates.csv""#))
    #expect(config.reportingCurrency?.code == "USD")
    #expect(config.fxRates == "fx/rates.csv")
    #expect(config.fees == FeeSchedule())
    let e = try #require(config.experiments.first)
    #expect(e.id == "p")
    #expect(e.enrollStart == CivilDate(year: 2026, month: 9, day: 1))
    #expect(e.enrollEnd == CivilDate(year: 2026, month: 10, day: 15))
    #expect(e.maturityThreshold == 0.9)
    #expect(e.bootstrap == BootstrapSettings(iterations: 2000, seed: 1))
    #expect(e.arms.map(\.id) == ["control", "high"])
    #expect(e.arms.map(\.weight) == [1, 2])
    #expect(
      e.arms[0].products == [
        ProductRef(store: nil, name: "com.acme.pro.monthly"), ProductRef(store: .play, name: "pro:monthly"),
      ])
    #expect(e.arms[1].products[0] == ProductRef(store: .appStore, name: "com.acme.pro.monthly.hi"))
    #expect(e.arms[1].offers("pro:monthly-hi", store: .play))
    #expect(!e.arms[0].offers("pro:monthly", store: .appStore))
    #expect(config.unknownKeys == ["note"])
  }

  @Test func parsesFeesThresholdBootstrapAndReportsUnknownNestedKeys() throws {
    let json = Self.config(
      #"""
      , "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-09-01", "maturityThreshold": 1,
          "bootstrap": {"iterations": 500, "seed": 0, "method": "bca"}, "enrolment": {},
          "arms": [{"id": "a", "weight": 1}, {"id": "b", "weight": 1, "price": 6.99}]}],
        "fees": {"appStore": {"smallBusiness": true, "standardBp": 2900, "afterFirstYearBp": 1400},
                 "play": {"oneTimeBp": 1500}, "stripe": {"bp": 290, "fixed": 30}}
      """#)
    let config = try Self.parse(json)
    let e = try #require(config.experiments.first)
    #expect(e.maturityThreshold == 1)
    #expect(e.bootstrap == BootstrapSettings(iterations: 500, seed: 0))
    #expect(e.arms[1].products.isEmpty)
    var fees = FeeSchedule()
    fees.appStoreSmallBusiness = true
    fees.appStoreStandardBp = 2900
    fees.appStoreAfterFirstYearBp = 1400
    fees.playOneTimeBp = 1500
    fees.stripeBp = 290
    #expect(config.fees == fees)
    #expect(
      config.unknownKeys == [
        "experiments[0].arms[1].price", "experiments[0].bootstrap.method", "experiments[0].enrolment",
        "fees.stripe.fixed", "note",
      ])
  }

  @Test(arguments: [
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15", "arms": [{"id": "a", "weight": 1}]}]"#,
      "config c.json: experiment 'p': arms must list at least two arms (the first is control)"
    ),
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-09-31", "enrollEnd": "2026-10-15", "arms": []}]"#,
      "config c.json: experiment 'p': enrollStart must be a date YYYY-MM-DD"
    ),
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-10-16", "enrollEnd": "2026-10-15", "arms": []}]"#,
      "config c.json: experiment 'p': enrollEnd 2026-10-15 is before enrollStart 2026-10-16"
    ),
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15", "arms": [{"id": "a", "weight": 0}, {"id": "b", "weight": 1}]}]"#,
      "config c.json: experiment 'p' arm 'a' weight must be a whole number from 1 to 1000000"
    ),
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15", "arms": [{"id": "a", "weight": 1}, {"id": "a", "weight": 1}]}]"#,
      "config c.json: experiment 'p': arm 'a' appears twice"
    ),
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15", "maturityThreshold": 1.5, "arms": [{"id": "a", "weight": 1}, {"id": "b", "weight": 1}]}]"#,
      "config c.json: experiment 'p': maturityThreshold must be a number from 0 to 1"
    ),
    (
      #", "experiments": [{"id": "p", "enrollStart": "2026-09-01", "enrollEnd": "2026-10-15", "bootstrap": {"iterations": 0}, "arms": [{"id": "a", "weight": 1}, {"id": "b", "weight": 1}]}]"#,
      "config c.json: experiment 'p' bootstrap.iterations must be a whole number from 1 to 1000000"
    ),
    (
      #", "fees": {"play": {"subscriptionBp": 15.5}}"#,
      "config c.json: fees.play.subscriptionBp must be a whole number from 0 to 10000"
    ),
    (
      #", "fees": {"appStore": {"smallBusiness": 1}}"#,
      "config c.json: fees.appStore.smallBusiness must be true or false"
    ),
    (#", "experiments": {}"#, "config c.json: experiments must be a list of experiment objects"),
  ])
  func invalidExperimentConfigIsOneClearLine(extra: String, message: String) {
    let error = Self.failure(Self.config(extra))
    #expect(error?.code == .config)
    #expect(error?.message == message)
  }

  @Test func experimentsAndRatesNeedAReportingCurrency() {
    let base = #"{"app": {"entitlements": "e.csv"}"#
    #expect(Self.failure(base + "}") == nil)
    #expect(
      Self.failure(base + #", "fxRates": "r.csv"}"#)?.message
        == "config c.json: fxRates needs reportingCurrency (the currency the rates convert into)")
    #expect(
      Self.failure(base + ", " + Self.experiment + "}")?.message
        == "config c.json: experiments need reportingCurrency (the currency revenue per assigned user is read out in)"
    )
    #expect(
      Self.failure(base + #", "reportingCurrency": "XAU"}"#)?.message
        == "config c.json: reportingCurrency must be an ISO 4217 code with minor units, such as \"USD\"")
  }

  @Test func numbersZeroAndOneAreNotTakenForBooleans() throws {
    // On Linux, JSONSerialization's 0 and 1 also cast to Bool; only true/false are booleans.
    let config = try Self.parse(
      #"{"app": {"entitlements": "e.csv"}, "toleranceHours": 1, "graceDays": {"play": 0}}"#)
    #expect(config.toleranceHours == 1)
    #expect(config.graceDays[.play] == 0)
    #expect(
      Self.failure(#"{"app": {"entitlements": "e.csv"}, "toleranceHours": true}"#)?.message
        == "config c.json: toleranceHours must be a non-negative whole number")
  }
}
