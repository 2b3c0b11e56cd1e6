import Foundation
package import StoreReconCore

/// The config keys of the price-experiment readout: `experiments`, `reportingCurrency`, `fxRates`, `fees`.
extension RunConfig {
  /// Whether a decoded JSON value is `true` or `false`. (`value is Bool` is also true for the numbers 0
  /// and 1 on Linux, where JSONSerialization returns both as `NSNumber`; only booleans have type code `c`.)
  package static func isJSONBool(_ value: Any) -> Bool {
    guard let number = value as? NSNumber else { return false }
    return unsafe String(cString: number.objCType) == "c"
  }

  /// Reads `fees.stripe.bp`, Stripe's processing fee in basis points (docs/config.md#fees).
  static func parseStripeFee(_ root: [String: Any], into config: inout RunConfig, name: String)
    throws(RunError)
  {
    guard let fees = root["fees"] as? [String: Any], let stripe = fees["stripe"] else { return }
    let fail = RunError(
      .config, "config \(name): fees.stripe must be an object with bp, a whole number from 0 to 10000")
    guard let object = stripe as? [String: Any] else { throw fail }
    for key in object.keys where key != "bp" { config.unknownKeys.append("fees.stripe.\(key)") }
    config.unknownKeys.sort()
    guard let value = object["bp"] else { return }
    guard !isJSONBool(value), let n = value as? Int, (0...10_000).contains(n) else { throw fail }
    config.fees.stripeBp = Int64(n)
  }

  package static func parseExperimentKeys(_ root: [String: Any], into config: inout RunConfig, name: String)
    throws(RunError)
  {
    defer { config.unknownKeys.sort() }
    func fail(_ what: String) -> RunError { RunError(.config, "config \(name): \(what)") }
    func object(_ value: Any?, _ key: String) throws(RunError) -> [String: Any] {
      guard let value else { return [:] }
      guard let o = value as? [String: Any] else { throw fail("\(key) must be an object") }
      return o
    }
    func whole(_ value: Any, _ key: String, _ range: ClosedRange<Int64>) throws(RunError) -> Int64 {
      guard !isJSONBool(value), let n = value as? Int, range.contains(Int64(n)) else {
        throw fail("\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
      }
      return Int64(n)
    }
    func unknown(_ object: [String: Any], _ known: Set<String>, _ path: String) {
      for key in object.keys.sorted() where !known.contains(key) {
        config.unknownKeys.append("\(path).\(key)")
      }
    }

    if let code = root["reportingCurrency"] {
      guard let code = code as? String, let currency = Currency.named(code), currency.minorUnits != nil,
        code == code.uppercased()
      else {
        throw fail("reportingCurrency must be an ISO 4217 code with minor units, such as \"USD\"")
      }
      config.reportingCurrency = currency
    }
    if let path = root["fxRates"] {
      guard let path = path as? String, !path.isEmpty else {
        throw fail("fxRates must be the path of a CSV file")
      }
      config.fxRates = path
    }

    if config.fxRates != nil && config.reportingCurrency == nil {
      throw fail("fxRates needs reportingCurrency (the currency the rates convert into)")
    }
    let fees = try object(root["fees"], "fees")
    unknown(fees, ["appStore", "play", "stripe"], "fees")
    let apple = try object(fees["appStore"], "fees.appStore")
    unknown(apple, ["standardBp", "smallBusiness", "smallBusinessBp", "afterFirstYearBp"], "fees.appStore")
    let bp: ClosedRange<Int64> = 0...10_000
    if let v = apple["standardBp"] {
      config.fees.appStoreStandardBp = try whole(v, "fees.appStore.standardBp", bp)
    }
    if let v = apple["smallBusinessBp"] {
      config.fees.appStoreSmallBusinessBp = try whole(v, "fees.appStore.smallBusinessBp", bp)
    }
    if let v = apple["afterFirstYearBp"] {
      config.fees.appStoreAfterFirstYearBp = try whole(v, "fees.appStore.afterFirstYearBp", bp)
    }
    if let v = apple["smallBusiness"] {
      guard isJSONBool(v), let flag = v as? Bool else {
        throw fail("fees.appStore.smallBusiness must be true or false")
      }
      config.fees.appStoreSmallBusiness = flag
    }
    let play = try object(fees["play"], "fees.play")
    unknown(play, ["subscriptionBp", "oneTimeBp"], "fees.play")
    if let v = play["subscriptionBp"] {
      config.fees.playSubscriptionBp = try whole(v, "fees.play.subscriptionBp", bp)
    }
    if let v = play["oneTimeBp"] { config.fees.playOneTimeBp = try whole(v, "fees.play.oneTimeBp", bp) }

    guard let list = root["experiments"] else { return }
    guard let items = list as? [Any] else { throw fail("experiments must be a list of experiment objects") }
    var ids = Set<String>()
    for (n, item) in items.enumerated() {
      let path = "experiments[\(n)]"
      guard let e = item as? [String: Any] else { throw fail("\(path) must be an object") }
      unknown(e, ["id", "enrollStart", "enrollEnd", "arms", "maturityThreshold", "bootstrap"], path)
      guard let id = e["id"] as? String, !id.isEmpty else {
        throw fail("\(path).id must be a non-empty string")
      }
      guard ids.insert(id).inserted else { throw fail("experiment id '\(id)' appears twice") }
      func date(_ key: String) throws(RunError) -> CivilDate {
        guard let text = e[key] as? String, let date = CivilDate.parse(text) else {
          throw fail("experiment '\(id)': \(key) must be a date YYYY-MM-DD")
        }
        return date
      }
      let start = try date("enrollStart")
      let end = try date("enrollEnd")
      guard start <= end else {
        throw fail("experiment '\(id)': enrollEnd \(end) is before enrollStart \(start)")
      }
      guard let armItems = e["arms"] as? [Any], armItems.count >= 2 else {
        throw fail("experiment '\(id)': arms must list at least two arms (the first is control)")
      }
      var arms: [ExperimentArm] = []
      for (k, armItem) in armItems.enumerated() {
        let armPath = "\(path).arms[\(k)]"
        guard let a = armItem as? [String: Any] else { throw fail("\(armPath) must be an object") }
        unknown(a, ["id", "weight", "products"], armPath)
        guard let armId = a["id"] as? String, !armId.isEmpty else {
          throw fail("experiment '\(id)': \(armPath).id must be a non-empty string")
        }
        guard !arms.contains(where: { $0.id == armId }) else {
          throw fail("experiment '\(id)': arm '\(armId)' appears twice")
        }
        guard let weightValue = a["weight"] else {
          throw fail("experiment '\(id)': arm '\(armId)' needs a weight")
        }
        let weight = try whole(weightValue, "experiment '\(id)' arm '\(armId)' weight", 1...1_000_000)
        var products: [ProductRef] = []
        if let list = a["products"] {
          guard let names = list as? [Any] else {
            throw fail("experiment '\(id)': arm '\(armId)' products must be a list of product names")
          }
          for product in names {
            guard let text = product as? String, !text.isEmpty else {
              throw fail("experiment '\(id)': arm '\(armId)' products must be a list of product names")
            }
            products.append(ProductRef(parsing: text))
          }
        }
        arms.append(ExperimentArm(id: armId, weight: weight, products: products))
      }
      var experiment = Experiment(id: id, enrollStart: start, enrollEnd: end, arms: arms)
      if let value = e["maturityThreshold"] {
        guard !isJSONBool(value), let share = value as? Double, share >= 0, share <= 1 else {
          throw fail("experiment '\(id)': maturityThreshold must be a number from 0 to 1")
        }
        experiment.maturityThreshold = share
      }
      let bootstrap = try object(e["bootstrap"], "\(path).bootstrap")
      unknown(bootstrap, ["iterations", "seed"], "\(path).bootstrap")
      if let v = bootstrap["iterations"] {
        experiment.bootstrap.iterations = Int(
          try whole(v, "experiment '\(id)' bootstrap.iterations", 1...1_000_000))
      }
      if let v = bootstrap["seed"] {
        experiment.bootstrap.seed = UInt64(try whole(v, "experiment '\(id)' bootstrap.seed", 0...Int64.max))
      }
      config.experiments.append(experiment)
    }
    if !config.experiments.isEmpty && config.reportingCurrency == nil {
      throw fail("experiments need reportingCurrency (the currency revenue per assigned user is read out in)")
    }
  }
}
