import Foundation
import Testing

@testable import StoreReconCore
@testable import StoreReconDemo

/// One side of a tie-out cell, computed in the test from the files.
private struct Side: Equatable {
  var units: Int64 = 0
  var gross: Int64 = 0
  var free: Int64 = 0
}

/// A cell key as the truth writes it: day (`2026-11-03` or `2026-10`), product, country, currency.
private struct Key: Hashable, CustomStringConvertible {
  var day: String
  var product: String
  var country: String
  var currency: String
  var description: String { "\(day) \(product) \(country) \(currency)" }
}

private func status(report: Side, ledger: Side) -> String {
  if report.units > ledger.units { return "report_more" }
  if report.units < ledger.units { return "report_less" }
  return report.gross == ledger.gross ? "match" : "price_differs"
}

/// Pacific day of an instant by Foundation's time-zone database (independent of DemoPacific).
private func pacificDay(ms: Int64) -> String {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
  let date = Date(timeIntervalSince1970: Double(ms) / 1000)
  let c = calendar.dateComponents([.year, .month, .day], from: date)
  return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
}

private let alpha2: [String: String] = [
  "USA": "US", "DEU": "DE", "FRA": "FR", "GBR": "GB", "JPN": "JP", "KWT": "KW", "CHE": "CH", "BRA": "BR",
]

/// The T of the default world: the end of 2026-11-29, UTC.
private let defaultT = CivilDate(year: 2026, month: 11, day: 30).startUTC.ms

@Suite("Demo store reports")
struct DemoStoreReportsTests {
  static let appleHeader =
    "Provider\tProvider Country\tSKU\tDeveloper\tTitle\tVersion\tProduct Type Identifier\tUnits\tDeveloper Proceeds\tBegin Date\tEnd Date\tCustomer Currency\tCountry Code\tCurrency of Proceeds\tApple Identifier\tCustomer Price\tPromo Code\tParent Identifier\tSubscription\tPeriod\tCategory\tCMB\tDevice\tSupported Platforms\tProceeds Reason\tPreserved Pricing\tClient\tOrder Type"
  static let oldEarningsHeader =
    "Description,Transaction Date,Transaction Time,Tax Type,Transaction Type,Refund Type,Product Title,Product id,Product Type,Sku Id,Hardware,Buyer Country,Buyer State,Buyer Postal Code,Buyer Currency,Amount (Buyer Currency),Currency Conversion Rate,Merchant Currency,Amount (Merchant Currency)"

  @Test func reportFilesExistWithTheExactHeaders() throws {
    let world = try GeneratedWorld(users: 1000)
    defer { world.remove() }
    let apple = world.truth.files.filter { $0.hasPrefix("exports/apple/reports/") }
    #expect(apple.count == 30)
    #expect(apple.first == "exports/apple/reports/S_D_85012345_20261030.txt")
    #expect(apple.last == "exports/apple/reports/S_D_85012345_20261128.txt")
    for path in apple {
      let lines = try world.lines(path)
      #expect(lines.first == Self.appleHeader, "\(path)")
      #expect(lines.first?.split(separator: "\t").count == 28)
    }
    let play = world.truth.files.filter { $0.hasPrefix("exports/play/earnings/") }
    #expect(
      play == [
        "exports/play/earnings/PlayApps_202608.csv", "exports/play/earnings/PlayApps_202609.csv",
        "exports/play/earnings/PlayApps_202610.csv",
      ])
    #expect(try world.lines(play[0]).first == Self.oldEarningsHeader)
    let newer = Self.oldEarningsHeader.replacingOccurrences(of: "Product id", with: "Package ID")
      .replacingOccurrences(of: "Sku Id", with: "SKU ID")
    #expect(try world.lines(play[2]).first == newer)
    let config = String(decoding: try world.data("storerecon.json"), as: UTF8.self)
    #expect(config.contains("\"salesReports\": [\"exports/apple/reports/S_D_*.txt\"]"))
    #expect(config.contains("\"earnings\": [\"exports/play/earnings/PlayApps_*.csv\"]"))
  }

  /// The ledger side of the Apple cells from the JSON lines, by the tie-out's rules.
  private func appleLedger(_ world: GeneratedWorld, days: Set<String>) throws -> [Key: Side] {
    var ledger: [Key: Side] = [:]
    for line in try world.lines("exports/apple/transactions.jsonl") {
      guard let o = decodeJSONLine(line), o["environment"] as? String == "Production",
        o["inAppOwnershipType"] as? String == "PURCHASED", let code = o["currency"] as? String,
        let currency = Currency.named(code), let milli = o["price"] as? Int64,
        let quantity = o["quantity"] as? Int64, let purchase = o["purchaseDate"] as? Int64,
        let product = o["productId"] as? String, let country = alpha2[o["storefront"] as? String ?? ""]
      else { continue }
      let price = try currency.minor(milliunits: milli)
      let day = pacificDay(ms: purchase)
      if days.contains(day) {
        let key = Key(day: day, product: product, country: country, currency: code)
        if price > 0 {
          ledger[key, default: Side()].units += quantity
          ledger[key, default: Side()].gross += price
        } else {
          ledger[key, default: Side()].free += quantity
        }
      }
      if o["revocationReason"] != nil, o["isUpgraded"] as? Bool != true,
        let revoked = o["revocationDate"] as? Int64, revoked <= defaultT,
        days.contains(pacificDay(ms: revoked))
      {
        let key = Key(day: pacificDay(ms: revoked), product: product, country: country, currency: code)
        ledger[key, default: Side()].units -= quantity
        ledger[key, default: Side()].gross -= price
      }
    }
    return ledger
  }

  /// The report side of the Apple cells from the Summary Sales reports.
  private func appleReport(_ world: GeneratedWorld, _ paths: [String]) throws -> [Key: Side] {
    var report: [Key: Side] = [:]
    for path in paths {
      for row in try world.lines(path).dropFirst() {
        let f = row.components(separatedBy: "\t")
        #expect(f.count == 28, "\(path): \(row)")
        let currency = try #require(Currency.named(f[11]))
        let units = try #require(Int64(f[7]))
        let price = try currency.minor(decimal: f[15])
        let proceeds = try currency.minor(decimal: f[8])
        #expect(f[9] == f[10] && f[13] == f[11] && proceeds >= 0 && proceeds <= abs(price), "\(row)")
        #expect((units < 0) == (price < 0), "refund rows: negative units and price: \(row)")
        let parts = f[9].split(separator: "/")
        let key = Key(
          day: "\(parts[2])-\(parts[0])-\(parts[1])", product: f[2], country: f[12], currency: f[11])
        #expect(path.hasSuffix("_\(parts[2])\(parts[0])\(parts[1]).txt"))
        if price == 0 {
          report[key, default: Side()].free += units
        } else {
          report[key, default: Side()].units += units
          report[key, default: Side()].gross += units * abs(price)
        }
      }
    }
    return report
  }

  @Test func appleReportsAreTheFeedByTheLedgerRulesExceptThePlants() throws {
    let world = try GeneratedWorld(users: 2000)
    defer { world.remove() }
    let paths = world.truth.files.filter { $0.hasPrefix("exports/apple/reports/") }
    let asOf = CivilDate(year: 2026, month: 11, day: 29).daysSinceEpoch
    let days = Set((1...30).map { CivilDate(daysSinceEpoch: asOf - Int64($0)).description })
    let ledger = try appleLedger(world, days: days)
    let report = try appleReport(world, paths)
    var differences: [String: String] = [:]
    var matched = 0
    for key in Set(ledger.keys).union(report.keys) {
      let r = report[key] ?? Side()
      let l = ledger[key] ?? Side()
      #expect(r.free == l.free, "free units of \(key)")
      let s = status(report: r, ledger: l)
      if s == "match" { matched += 1 } else { differences[key.description] = s }
    }
    #expect(matched > 200)
    var planted: [String: String] = [:]
    for c in world.truth.tieOut.cells where c.store == .appStore {
      planted[
        Key(day: c.dayText, product: c.productId, country: c.country, currency: c.currency).description] =
        c.status.rawValue
    }
    #expect(differences == planted)
    // The controls are cells of the ledger that match.
    #expect(world.truth.tieOut.controls.count == 5)
    for control in world.truth.tieOut.controls {
      let c = control.cell
      let key = Key(day: c.dayText, product: c.productId, country: c.country, currency: c.currency)
      #expect(ledger[key] != nil, "\(control.what)")
      #expect(differences[key.description] == nil, "\(control.what)")
    }
  }

  @Test func rerunRemovesReportsOfAnEarlierWorld() throws {
    let world = try GeneratedWorld(users: 600)
    defer { world.remove() }
    let stale = [
      "exports/apple/reports/S_D_85012345_20990101.txt", "exports/play/earnings/PlayApps_209901.csv",
    ]
    for path in stale { try Data("x\n".utf8).write(to: world.root.appendingPathComponent(path)) }
    var options = DemoOptions()
    options.users = 600
    let again = try DemoWorld.generate(options, into: world.root.path)
    for path in stale {
      #expect(
        !FileManager.default.fileExists(atPath: world.root.appendingPathComponent(path).path), "\(path)")
    }
    #expect(again.files == world.truth.files)
    #expect(
      again.tieOut.cells == world.truth.tieOut.cells && again.tieOut.orders == world.truth.tieOut.orders)
  }
}
