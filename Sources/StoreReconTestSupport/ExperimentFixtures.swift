package import StoreReconCore

/// Builders for experiment readout tests: one experiment `e` (control / high, enrolment 2026-09-01 …
/// 2026-10-15), assignments, and the readout as of ``Fx/t`` (end of 2026-11-29 UTC).
package enum Ex {
  package static let experiment = Experiment(
    id: "e", enrollStart: CivilDate(year: 2026, month: 9, day: 1),
    enrollEnd: CivilDate(year: 2026, month: 10, day: 15),
    arms: [
      ExperimentArm(
        id: "control", weight: 50,
        products: [ProductRef(parsing: "com.acme.pro.monthly"), ProductRef(parsing: "play:pro:monthly")]),
      ExperimentArm(
        id: "high", weight: 50,
        products: [
          ProductRef(parsing: "com.acme.pro.monthly.hi"), ProductRef(parsing: "play:pro:monthly-hi"),
        ]),
    ],
    bootstrap: BootstrapSettings(iterations: 400, seed: 1))

  package static func assign(_ user: String, _ arm: String, _ at: String, experiment: String = "e")
    -> Assignment
  {
    Assignment(userId: user, experimentId: experiment, armId: arm, assignedAt: Fx.at(at), origin: Fx.origin)
  }

  package static func utcDay(_ instant: Instant) -> CivilDate {
    CivilDate(daysSinceEpoch: instant.ms.floorDivided(by: Instant.msPerDay).quotient)
  }

  package static func readout(
    _ records: [StoreTransaction], credentials: [Credential] = [], assignments: [Assignment],
    experiment: Experiment = experiment, fx: [FXRate] = [], fees: FeeSchedule = FeeSchedule(),
    catalog: Catalog = Catalog()
  ) -> Readout {
    let settings = ExperimentSettings(
      fx: FXRateBook(reporting: Fx.usd, rows: fx), fees: fees, catalog: catalog, rounding: .halfEven)
    let readouts = Readout.build(
      experiments: [experiment], ledger: Fx.ledger(records, catalog: catalog), credentials: credentials,
      assignments: assignments, settings: settings, dayOf: utcDay)
    return readouts[0]
  }

  /// A monthly App Store charge `id` of chain `original` at `at`.
  package static func apple(
    _ id: String, _ original: String, _ at: String, product: String = "com.acme.pro.monthly",
    price: Int64 = 499,
    sandbox: Bool = false, family: Bool = false, revokedAt: String? = nil, upgraded: Bool = false,
    trial: Bool = false, token: String? = nil
  ) -> StoreTransaction {
    let start = Fx.at(at)
    var r = Fx.apple(
      id, original: original, product: product, at: start, expires: BillingPeriod.oneMonth.advance(start),
      price: trial ? 0 : price, sandbox: sandbox, family: family, revokedAt: revokedAt.map(Fx.at),
      upgraded: upgraded)
    r.isTrial = trial
    r.accountToken = token
    return r
  }

  package static func rate(_ date: String, _ code: String, _ text: String) -> FXRate {
    FXRate(
      date: CivilDate.parse(date) ?? CivilDate(year: 1970, month: 1, day: 1), currency: currency(code),
      rate: (try? DecimalRate.parse(text)) ?? .one, origin: Fx.origin)
  }

  /// The currency with `code` (USD for an unknown code, which no test uses).
  package static func currency(_ code: String) -> Currency { Currency.named(code) ?? Fx.usd }

  /// `n` users of `arm`, assigned on 09-02; the first `payers` each buy one monthly charge of `price` on 09-05.
  package static func cohort(
    _ arm: String, prefix: String, n: Int, payers: Int, price: Int64, months: Int = 1
  )
    -> (records: [StoreTransaction], credentials: [Credential], assignments: [Assignment])
  {
    var records: [StoreTransaction] = []
    var credentials: [Credential] = []
    var assignments: [Assignment] = []
    for i in 0..<n {
      let user = "\(prefix)\(i)"
      assignments.append(assign(user, arm, "2026-09-02T00:00:00Z"))
      guard i < payers else { continue }
      let key = "\(prefix)-chain-\(i)"
      for m in 0..<months {
        records.append(apple("\(key)-\(m)", key, "2026-09-\(10 + 2 * m)T10:00:00Z", price: price))
      }
      credentials.append(Fx.cred(key: key, user: user))
    }
    return (records, credentials, assignments)
  }
}
