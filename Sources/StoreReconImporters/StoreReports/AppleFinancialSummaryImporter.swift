package import StoreReconCore
package import StoreReconIO

/// Apple's financial summary: the CSV Payments and Financial Reports offers for download
/// (`financial_report.csv`, every region of one fiscal month in one file), reference §2.5.
///
/// The file opens with a title line naming the fiscal month (`"iTunes Connect - Payments and Financial
/// Reports<TAB>(July, 2015)"`), then a header line found by its first column, `Region (Currency)` or
/// `Country or Region (Currency)`; the other columns are found by name (any order, case-insensitive).
/// Required: `Earned`, `Total Owed`, `Proceeds`, `Bank Account Currency`; optional: `Units Sold`,
/// `Beginning Balance`, `Pre-Tax Subtotal`, `Input Tax`, `Adjustments`, `Withholding Tax`,
/// `Exchange Rate`. Each region line (`Japan (JPY)`) gives its amounts in the currency in its
/// parentheses (JPY without decimals), `Proceeds` in the bank account currency. Below the regions, a
/// line whose one non-blank cell is an amount and a currency (`"46.42" EUR`, `"1263.38 EUR"`) is the
/// payment, and `Paid to …` names the account; blank lines are passed over. A file without a title month
/// or a header line is refused whole (exit 65).
package struct AppleFinancialSummaryImporter {
  /// Creates the importer.
  package init() {}

  struct Columns {
    var units = -1, balance = -1, earned = -1, subtotal = -1, inputTax = -1, adjustments = -1
    var withholding = -1, owed = -1, rate = -1, proceeds = -1, bank = -1

    init(_ names: [String], displayName: String) throws(InputError) {
      func find(_ name: String) -> Int { names.firstIndex { CSVReader.key($0) == CSVReader.key(name) } ?? -1 }
      units = find("Units Sold")
      balance = find("Beginning Balance")
      earned = find("Earned")
      subtotal = find("Pre-Tax Subtotal")
      inputTax = find("Input Tax")
      adjustments = find("Adjustments")
      withholding = find("Withholding Tax")
      owed = find("Total Owed")
      rate = find("Exchange Rate")
      proceeds = find("Proceeds")
      bank = find("Bank Account Currency")
      let missing = [
        ("Earned", earned), ("Total Owed", owed), ("Proceeds", proceeds), ("Bank Account Currency", bank),
      ].filter { $0.1 < 0 }.map(\.0)
      guard missing.isEmpty else { throw .missingColumns(file: displayName, missing) }
    }
  }

  /// Reads one summary, appending its region lines to `rows.appleFinancialSummary` and its payment to
  /// `rows.applePayments`.
  package func read(
    path: String, displayName: String, fileIndex: Int32, rejects: any RejectSink,
    into rows: inout StoreReportRows
  ) throws(InputError) -> InputCounts {
    let csv = try CSVReader(path: path, displayName: displayName, separator: StoreReportReader.comma)
    guard let month = AppleFinancialSummaryImporter.month(csv.header.first ?? "") else {
      throw .malformed(
        path: displayName,
        reason:
          "its first line names no fiscal month like '(July, 2015)': not an Apple financial summary (financial_report.csv)"
      )
    }
    var counter = RecordCounter(displayName: displayName, rejects: rejects)
    let interner = StringInterner()
    var columns: Columns?
    var payment: AppleFinancialPayment?
    while let record = try csv.next() {
      let origin = Origin(file: fileIndex, line: Int32(clamping: record.line))
      let first = record.string(0).trimmingSpaces
      if record.malformed != nil || first.isEmpty {
        // Below the regions: the payment, the account, or blank cells.
        let cells = AppleFinancialSummaryImporter.looseCells(record.rawText)
        guard !cells.isEmpty else { continue }
        do throws(RowRejection) {
          if let paidTo = cells.first(where: { $0.lowercased().hasPrefix("paid to") }) {
            guard payment != nil else { throw RowRejection("'Paid to' line before the payment's amount") }
            payment?.paidTo = paidTo
            continue
          }
          guard cells.count == 1 else {
            throw RowRejection("not a region line, a payment or a 'Paid to' line")
          }
          var p = try AppleFinancialSummaryImporter.payment(cells[0], month: month, origin: origin)
          if let before = payment {
            throw RowRejection("a second payment line (the first, line \(before.origin.line), is kept)")
          }
          p.origin = origin
          payment = p
          counter.accept()
        } catch {
          counter.reject(line: record.line, reason: error.reason, raw: record.rawText)
        }
        continue
      }
      guard let c = columns else {
        let text = first.lowercased()
        if text.hasSuffix("(currency)") {
          var names: [String] = []
          for i in 0..<record.count { names.append(record.string(i)) }
          columns = try Columns(names, displayName: displayName)
        } else {
          counter.reject(
            line: record.line, reason: "a line before the header line (Region (Currency), …)",
            raw: record.rawText)
        }
        continue
      }
      do throws(RowRejection) {
        let row = try AppleFinancialSummaryImporter.region(
          ReportCells(record: record, interner: interner), c, month: month, origin: origin)
        rows.appleFinancialSummary.append(row)
        counter.accept()
      } catch {
        counter.reject(line: record.line, reason: error.reason, raw: record.rawText)
      }
    }
    guard columns != nil else {
      throw .malformed(path: displayName, reason: "no header line starting 'Region (Currency)'")
    }
    if let payment { rows.applePayments.append(payment) }
    return counter.counts
  }

  /// The fiscal month of a title like `iTunes Connect - Payments and Financial Reports\t(July, 2015)`.
  static func month(_ title: String) -> CivilDate? {
    guard let open = title.lastIndex(of: "("), let close = title.lastIndex(of: ")"), open < close else {
      return nil
    }
    let inside = title[title.index(after: open)..<close].replacingOccurrences(",", " ")
    let words = inside.split(separator: " ")
    guard words.count == 2, let year = Int(words[1]), (1970...9999).contains(year),
      let month = monthNames.firstIndex(where: { words[0].lowercased().hasPrefix($0) })
    else { return nil }
    return CivilDate(year: year, month: month + 1, day: 1)
  }

  static let monthNames = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  /// The non-blank cells of a loosely quoted line (`,,"46.42" EUR,,`): quotes dropped, cells trimmed.
  static func looseCells(_ raw: String) -> [String] {
    raw.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.filter { $0 != "\"" }.trimmingSpaces }
      .filter { !$0.isEmpty }
  }

  /// `46.42 EUR` as the payment.
  static func payment(_ cell: String, month: CivilDate, origin: Origin) throws(RowRejection)
    -> AppleFinancialPayment
  {
    let parts = cell.split(separator: " ")
    guard parts.count == 2, let currency = Currency.named(String(parts[1]).uppercased()) else {
      throw RowRejection(
        "'\(RawText.truncated(cell))' is not a payment (an amount and a currency, '46.42 EUR')")
    }
    do {
      return AppleFinancialPayment(
        month: month, amountMinor: try currency.minor(decimal: String(parts[0])), currency: currency,
        origin: origin)
    } catch {
      throw RowRejection("payment '\(RawText.truncated(cell))': \(error.description)")
    }
  }

  /// One region line.
  static func region(_ cells: ReportCells, _ c: Columns, month: CivilDate, origin: Origin)
    throws(RowRejection)
    -> AppleFinancialSummaryRow
  {
    let label = cells.text(0)
    guard let open = label.lastIndex(of: "("), label.hasSuffix(")") else {
      throw RowRejection(
        "region '\(RawText.truncated(label))' names no currency in parentheses ('Japan (JPY)')")
    }
    let code = String(label[label.index(after: open)...].dropLast()).uppercased()
    guard let currency = Currency.named(code) else {
      throw RowRejection(
        "region '\(RawText.truncated(label))': '\(RawText.truncated(code))' is not an ISO 4217 currency")
    }
    let bank = try cells.currency(c.bank, "Bank Account Currency")
    func amount(_ index: Int, _ name: String) throws(RowRejection) -> Int64 {
      index < 0 || cells.isBlank(index) ? 0 : try cells.money(index, name, currency)
    }
    var row = AppleFinancialSummaryRow(
      month: month, region: String(label[..<open]).trimmingSpaces, currency: currency,
      earnedMinor: try cells.money(c.earned, "Earned", currency),
      totalOwedMinor: try cells.money(c.owed, "Total Owed", currency),
      proceedsMinor: try cells.money(c.proceeds, "Proceeds", bank), bankCurrency: bank, origin: origin)
    if c.units >= 0 && !cells.isBlank(c.units) { row.units = try cells.wholeNumber(c.units, "Units Sold") }
    if c.balance >= 0 && !cells.isBlank(c.balance) {
      row.carriedMinor = try amount(c.balance, "Beginning Balance")
    } else if c.subtotal >= 0 && !cells.isBlank(c.subtotal) {
      row.carriedMinor = try amount(c.subtotal, "Pre-Tax Subtotal") &- row.earnedMinor
    }
    row.inputTaxMinor = try amount(c.inputTax, "Input Tax")
    row.adjustmentsMinor = try amount(c.adjustments, "Adjustments")
    row.withholdingTaxMinor = try amount(c.withholding, "Withholding Tax")
    if c.rate >= 0 && !cells.isBlank(c.rate) {
      let text = cells.text(c.rate)
      do {
        let rate = try DecimalRate.parse(text)
        guard rate.mantissa > 0 else { throw RowRejection("Exchange Rate '\(text)' is not positive") }
        row.exchangeRate = text
      } catch let error as RowRejection {
        throw error
      } catch {
        throw RowRejection("Exchange Rate '\(RawText.truncated(text))': \(error)")
      }
    }
    return row
  }
}

extension StringProtocol {
  /// Without leading and trailing spaces and tabs.
  fileprivate var trimmingSpaces: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }

  fileprivate func replacingOccurrences(_ a: Character, _ b: Character) -> String {
    String(map { $0 == a ? b : $0 })
  }
}
