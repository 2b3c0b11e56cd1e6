import StoreReconCore

/// Apple Summary Sales reports: the plants, the truth and the files.
extension DemoStoreReports {
  /// Vendor number in the reports' names.
  static let vendor = "85012345"
  /// The 28 columns of a Summary Sales report (the store formats reference, §2.1), tab-separated.
  static let appleHeader = [
    "Provider", "Provider Country", "SKU", "Developer", "Title", "Version", "Product Type Identifier",
    "Units",
    "Developer Proceeds", "Begin Date", "End Date", "Customer Currency", "Country Code",
    "Currency of Proceeds",
    "Apple Identifier", "Customer Price", "Promo Code", "Parent Identifier", "Subscription", "Period",
    "Category",
    "CMB", "Device", "Supported Platforms", "Proceeds Reason", "Preserved Pricing", "Client", "Order Type",
  ].joined(separator: "\t")

  /// Planted Apple cells per status.
  static let applePlan: [TieOutCell.Status: Int] = [.reportMore: 3, .reportLess: 3, .priceDiffers: 2]

  /// `exports/apple/reports/S_D_<vendor>_<YYYYMMDD>.txt`.
  static func applePath(_ day: CivilDate) -> String {
    let compact = day.description.replacingOccurrences(of: "-", with: "")
    return "exports/apple/reports/S_D_\(vendor)_\(compact).txt"
  }

  /// The negative controls chosen while recording, as truth.
  func chosenControls() -> [DemoTieOutControl] {
    controls.values.map {
      DemoTieOutControl(cell: planted($0.cell, .match, .appleSales), what: $0.what)
    }.sorted()
  }

  func planted(_ key: CellKey, _ status: TieOutCell.Status, _ source: StoreReportKind) -> PlantedTieOutCell {
    PlantedTieOutCell(
      store: source.store, source: source, day: key.day, productId: key.productId, country: key.country,
      currency: key.currency, status: status)
  }

  /// Plants the Apple differences into ``appleRows``: 3 `report_more` (a unit added to two rows, one
  /// row in a cell the feed has nothing in), 3 `report_less` (a unit removed from two rows, one row
  /// removed), 2 `price_differs` (a row's customer price raised by 5 %). Each in a cell of its own,
  /// none in a control's cell.
  func plantApple() throws {
    var rng = DemoRandom(seed: seed, stream: 0x71E0_A991_0000_0000)
    var used = Set(controls.values.map(\.cell))
    var candidates = appleRows.keys.filter { $0.unitPrice > 0 }.sorted()
    rng.shuffle(&candidates)
    func take() throws -> AppleRowKey {
      guard let index = candidates.firstIndex(where: { !used.contains(cell($0)) }) else {
        throw DemoError.inconsistentTruth(
          "too few App Store sales in the report days to plant tie-out differences")
      }
      let key = candidates.remove(at: index)
      used.insert(cell(key))
      return key
    }
    for _ in 0..<2 { appleRows[try take(), default: 0] += 1 }
    for _ in 0..<2 {
      let key = try take()
      appleRows[key, default: 0] -= 1
      if appleRows[key] == 0 { appleRows[key] = nil }
    }
    appleRows[try take()] = nil
    for _ in 0..<2 {
      let key = try take()
      var raised = key
      raised.unitPrice += max(1, key.unitPrice / 20)
      appleRows[raised, default: 0] += appleRows[key] ?? 0
      appleRows[key] = nil
    }
    // A lifetime unlock the feed does not have, in a cell it has nothing in.
    for _ in 0..<1000 {
      let day = rng.pick(appleDays)
      guard let country = countries[rng.pick(countryOrder)] else { continue }
      let key = AppleRowKey(
        day: day, product: .appleLifetime, country: country.alpha2, unitPrice: country.price(.lifetime),
        subscription: "")
      guard appleLedger[cell(key)] == nil, !used.contains(cell(key)) else { continue }
      used.insert(cell(key))
      appleRows[key, default: 0] += 1
      return
    }
    // A world so big that every cell has sales: the unlock in a storefront the world never sells in.
    guard let cad = Currency.named("CAD") else {
      throw DemoError.inconsistentTruth("no empty App Store cell for a planted report_more")
    }
    let canada = DemoCountry(
      alpha2: "CA", alpha3: "CAN", storefrontId: "143455", currency: cad, taxBasisPoints: 0,
      taxIncluded: true,
      prices: [699, 999, 5499, 10999, 149], weight: 0)
    countries[canada.alpha2] = canada
    let key = AppleRowKey(
      day: rng.pick(appleDays), product: .appleLifetime, country: canada.alpha2,
      unitPrice: canada.price(.lifetime), subscription: "")
    used.insert(cell(key))
    appleRows[key, default: 0] += 1
  }

  func cell(_ key: AppleRowKey) -> CellKey {
    key.cell(countries[key.country]?.currency.code ?? "")
  }

  /// The Apple cells the rows as written give against the ledger, non-`match` only, sorted.
  func appleTruth() throws -> [PlantedTieOutCell] {
    var report: [CellKey: Money] = [:]
    for (key, units) in appleRows {
      let c = cell(key)
      if key.unitPrice == 0 {
        report[c, default: Money()].free += units
      } else {
        report[c, default: Money()].units += units
        report[c, default: Money()].gross += units * abs(key.unitPrice)
      }
    }
    var found: [PlantedTieOutCell] = []
    for c in Set(report.keys).union(appleLedger.keys) {
      let status = DemoStoreReports.status(report: report[c] ?? Money(), ledger: appleLedger[c] ?? Money())
      if status != .match { found.append(planted(c, status, .appleSales)) }
    }
    try DemoStoreReports.verify(found.map(\.status), planned: DemoStoreReports.applePlan, "App Store tie-out")
    return found.sorted()
  }

  /// Writes one report per covered day that has rows (none where a day has no row). Returns the paths.
  func writeApple(into directory: String) throws -> [String] {
    var byDay: [CivilDate: [AppleRowKey]] = [:]
    for key in appleRows.keys { byDay[key.day, default: []].append(key) }
    var paths: [String] = []
    for day in appleDays {
      let lines = (byDay[day] ?? []).sorted().compactMap { key -> String? in
        guard let units = appleRows[key], let country = countries[key.country] else { return nil }
        return appleLine(key, units, country)
      }
      // A day without a row has no report: Apple's day is real or absent, never a header alone
      // (which the run would name as incomplete, docs/tieout.md#a-report-that-shrinks-to-nothing).
      guard !lines.isEmpty else { continue }
      let path = DemoStoreReports.applePath(day)
      let writer = try DemoFileWriter(directory: directory, relativePath: path)
      try writer.write(bytes: (DemoStoreReports.appleHeader + "\n").utf8)
      for line in lines { try writer.write(bytes: (line + "\n").utf8) }
      try writer.close()
      paths.append(path)
    }
    return paths
  }

  /// One Summary Sales row: per-unit prices, refund rows with negative units and customer price and
  /// positive proceeds; proceeds = (price − the country's included tax) × 70 %, half-even.
  private func appleLine(_ key: AppleRowKey, _ units: Int64, _ country: DemoCountry) -> String {
    let currency = country.currency
    let price = abs(key.unitPrice)
    let net =
      country.taxIncluded
      ? RoundingRule.halfEven.scale(price, numerator: 10_000, denominator: 10_000 + country.taxBasisPoints)
      : price
    let proceeds = RoundingRule.halfEven.scale(net, numerator: 7000, denominator: 10_000)
    let date = DemoStoreReports.appleDate(key.day)
    let product = key.product
    let fields = [
      "APPLE", "US", product.name, "Acme Apps Ltd", product.appleTitle, "",
      product.isSubscription ? "IAY" : "IA1", String(units),
      DemoStoreReports.appleDecimal(proceeds, currency),
      date, date, currency.code, country.alpha2, currency.code, String(1_612_345_000 + product.rawValue),
      DemoStoreReports.appleDecimal(key.unitPrice, currency), "", "ACMEAPP01", key.subscription,
      product.applePeriod, "Productivity", "", "iPhone", "iOS", "", "", "", "",
    ]
    return fields.joined(separator: "\t")
  }

  /// `MM/DD/YYYY`.
  static func appleDate(_ day: CivilDate) -> String {
    "\(DemoIdentifiers.padded(Int64(day.month), 2))/\(DemoIdentifiers.padded(Int64(day.day), 2))/\(day.year)"
  }

  /// Apple's decimals: `.99` for positive amounts below one, `-0.99`, `4.99`, `700`, `1.500`.
  static func appleDecimal(_ minor: Int64, _ currency: Currency) -> String {
    let text = currency.format(minor)
    return minor > 0 && text.hasPrefix("0.") ? String(text.dropFirst()) : text
  }
}

extension DemoProduct {
  /// The in-app purchase's reference name in App Store Connect (the reports' `Title`).
  var appleTitle: String {
    switch tier {
    case .monthly: return "Acme Pro Monthly"
    case .monthlyHi: return "Acme Pro Monthly (Paywall B)"
    case .yearly: return "Acme Pro Yearly"
    case .lifetime: return "Acme Lifetime Unlock"
    case .coins: return "100 Coins"
    }
  }

  /// The reports' `Period` for auto-renewable subscriptions.
  var applePeriod: String {
    switch tier {
    case .monthly, .monthlyHi: return "1 Month"
    case .yearly: return "1 Year"
    case .lifetime, .coins: return ""
    }
  }
}
