import Foundation
import Testing

@testable import StoreReconCore

/// The next-step table: an entry for every reason and status, and the same sentence, word for word,
/// under its anchor in docs/ (docs/reports.md#what-to-do-and-docs).
@Suite struct NextStepTests {
  /// The package's docs/ folder, found from this file's path.
  static func docsFolder(from filePath: String = #filePath) -> URL? {
    var folder = URL(fileURLWithPath: filePath).deletingLastPathComponent()
    while folder.path != "/" && !folder.path.isEmpty {
      let docs = folder.appendingPathComponent("docs")
      if FileManager.default.fileExists(atPath: docs.appendingPathComponent("rules.md").path) { return docs }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }

  @Test func everyReasonAndStatusHasAStep() {
    for reason in Finding.Reason.allCases {
      #expect(NextStep.of(reason) != nil, "no next step for finding reason \(reason.rawValue)")
    }
    for status in TieOutCell.Status.allCases where status != .match {
      #expect(NextStep.of(status) != nil, "no next step for tie-out status \(status.rawValue)")
    }
    for status in TieOutOrder.Status.allCases where status != .match {
      #expect(NextStep.of(status) != nil, "no next step for Play order status \(status.rawValue)")
    }
    #expect(NextStep.of(.rejectedRows) != nil)
    #expect(NextStep.of(TieOutCell.Status.match) == nil)
    #expect(NextStep.of(TieOutOrder.Status.match) == nil)
  }

  @Test func theTableHasOneEntryPerSubjectAndNothingElse() {
    let subjects = NextStep.table.map(\.subject)
    #expect(Set(subjects).count == subjects.count, "a subject has two entries")
    #expect(Set(subjects) == Set(NextStep.Subject.all))
    #expect(NextStep.table.count == Finding.Reason.allCases.count + 3 + 8 + 1)
  }

  /// A finding of each reason and a tie-out order of each status about Stripe names Stripe's Dashboard,
  /// API or events, never a store's console, receipts or notifications; the stores' rows keep theirs.
  @Test func stripeRowsOfEveryKindNameStripeNotTheStores() {
    let storeWords = [
      "App Store", "Play Console", "Apple", "Google", "Play ", "fees.play", "receipt", "license-tester",
      "voided", "store's console", "finishes the transaction",
    ]
    var subjects: [(String, NextStep?, NextStep?)] = Finding.Reason.allCases.map {
      ($0.rawValue, NextStep.of($0, store: .stripe), NextStep.of($0))
    }
    // The statuses a Stripe tie-out row can have (docs/tieout.md#stripe-charges-and-refunds).
    let stripeStatuses: [TieOutOrder.Status] = [
      .missingInReport, .missingInFeed, .amountDiffers, .feeDiffers,
    ]
    subjects += stripeStatuses.map {
      ($0.rawValue, NextStep.of($0, store: .stripe), NextStep.of($0))
    }
    for (name, stripe, general) in subjects {
      guard let stripe, let general else {
        Issue.record("\(name): no step")
        continue
      }
      for word in storeWords {
        #expect(!stripe.whatToDo.contains(word), "\(name): the Stripe step says '\(word)'")
      }
      let console = ["App Store Connect", "Play Console", "store's console"].contains {
        general.whatToDo.contains($0)
      }
      if console {
        #expect(stripe.whatToDo.contains("Stripe Dashboard"), "\(name): \(stripe.whatToDo)")
      }
    }
    #expect(NextStep.of(.neverReceived, store: .stripe)?.whatToDo.contains("Developers, Webhooks") == true)
    #expect(NextStep.of(.neverReceived, store: .stripe)?.anchor == "rules.md#stripe-webhook-events")
    #expect(NextStep.of(.neverReceived, store: .appStore) == NextStep.of(.neverReceived))
    #expect(NextStep.of(.feeDiffers, store: .play) == NextStep.of(TieOutOrder.Status.feeDiffers))
    #expect(NextStep.of(.feeDiffers, store: .stripe)?.whatToDo.contains("fees.stripe") == true)
  }

  @Test func stepsAreShortSentencesWithAnAnchor() {
    for step in NextStep.table + NextStep.stripeTable {
      #expect(!step.whatToDo.isEmpty && step.whatToDo.count <= 320, "\(step.subject.name): length")
      #expect(step.whatToDo.last == ".", "\(step.subject.name): not a sentence")
      #expect(!step.whatToDo.contains("\n") && !step.whatToDo.contains("  "), "\(step.subject.name)")
      let parts = step.anchor.split(separator: "#", omittingEmptySubsequences: false)
      #expect(parts.count == 2 && parts[0].hasSuffix(".md") && !parts[1].isEmpty, "\(step.anchor)")
    }
  }

  @Test func linksAreTheBaseThenTheAnchor() throws {
    let step = try #require(NextStep.of(.unclaimed))
    #expect(step.link(base: NextStep.defaultDocsBase) == "docs/rules.md#orphaned_chargeunclaimed")
    #expect(
      step.link(base: "https://wiki.example.com/storerecon/")
        == "https://wiki.example.com/storerecon/rules.md#orphaned_chargeunclaimed")
    #expect(NextStep.Subject.finding(.unclaimed).name == "orphaned_charge/unclaimed")
    #expect(NextStep.Subject.tieOutOrder(.feeDiffers).name == "tieout_orders/fee_differs")
  }

  @Test func githubSlugsAsTheDocsLinkThem() {
    #expect(MarkdownSections.slug("## orphaned_charge/unclaimed") == "orphaned_chargeunclaimed")
    #expect(MarkdownSections.slug("### `report_more`") == "report_more")
    #expect(MarkdownSections.slug("## rejects/") == "rejects")
    #expect(
      MarkdownSections.slug("## What each status means and what to do")
        == "what-each-status-means-and-what-to-do")
    #expect(
      MarkdownSections.slug("## The daily console check (counts.csv)") == "the-daily-console-check-countscsv")
  }

  /// Each entry's text stands verbatim (line breaks aside) as a `**What to do:**` line in its anchor's
  /// section (a Stripe entry's as a `**What to do (Stripe):**` line), and the anchor is a heading of the
  /// page.
  @Test func docsHoldTheSameSentencesUnderTheirAnchors() throws {
    let docs = try #require(Self.docsFolder(), "no docs/ folder above \(#filePath)")
    var pages: [String: MarkdownSections] = [:]
    let steps =
      NextStep.table.map { ("**What to do:** ", $0) }
      + NextStep.stripeTable.map { ("**What to do (Stripe):** ", $0) }
    for (label, step) in steps {
      let parts = step.anchor.split(separator: "#").map(String.init)
      try #require(parts.count == 2, "\(step.anchor)")
      let page = parts[0]
      if pages[page] == nil {
        let text = try String(contentsOf: docs.appendingPathComponent(page), encoding: .utf8)
        pages[page] = MarkdownSections(text)
      }
      let sections = try #require(pages[page])
      guard let section = sections.section(parts[1]) else {
        Issue.record("\(step.subject.name): docs/\(step.anchor) is not a heading of docs/\(page)")
        continue
      }
      #expect(
        section.contains(label + step.whatToDo),
        "\(step.subject.name): docs/\(step.anchor) does not say `\(label)\(step.whatToDo)`")
    }
  }

  @Test func theDocsCheckFailsOnADriftedSentenceOrAMissingAnchor() {
    let page = MarkdownSections(
      """
      # Page

      ## orphaned_charge/unclaimed

      Text.

      **What to do:** Look the purchase up
      by its chain key.

      ## next

      **What to do:** Elsewhere.
      """)
    let section = page.section("orphaned_chargeunclaimed") ?? ""
    #expect(section.contains("**What to do:** Look the purchase up by its chain key."))
    #expect(!section.contains("**What to do:** Look the purchase up by its key."))
    #expect(!section.contains("Elsewhere"))
    #expect(page.section("orphaned_chargelocked_out") == nil)
  }
}

/// The sections of a Markdown page by their GitHub anchors, whitespace collapsed to single spaces.
struct MarkdownSections {
  var sections: [String: String] = [:]

  init(_ text: String) {
    var current: String?
    var body: [String] = []
    var fenced = false
    func close() {
      if let current, sections[current] == nil {
        sections[current] = body.joined(separator: " ").split(whereSeparator: \.isWhitespace).joined(
          separator: " ")
      }
      body = []
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line.hasPrefix("```") { fenced.toggle() }
      if !fenced && line.hasPrefix("#") && line.drop(while: { $0 == "#" }).first == " " {
        close()
        current = Self.slug(line)
        continue
      }
      body.append(line)
    }
    close()
  }

  /// The text of the section under the heading whose anchor is `anchor` (up to the next heading).
  func section(_ anchor: String) -> String? { sections[anchor] }

  /// GitHub's anchor of a heading line: lower case, backticks and punctuation dropped (letters, digits,
  /// `-` and `_` kept), spaces as `-`.
  static func slug(_ heading: String) -> String {
    let text = heading.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
    var out = ""
    for c in text.lowercased() {
      if c.isLetter || c.isNumber || c == "-" || c == "_" {
        out.append(c)
      } else if c == " " {
        out.append("-")
      }
    }
    return out
  }
}
