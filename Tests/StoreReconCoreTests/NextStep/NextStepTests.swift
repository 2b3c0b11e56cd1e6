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

  @Test func stepsAreShortSentencesWithAnAnchor() {
    for step in NextStep.table {
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
  /// section, and the anchor is a heading of the page.
  @Test func docsHoldTheSameSentencesUnderTheirAnchors() throws {
    let docs = try #require(Self.docsFolder(), "no docs/ folder above \(#filePath)")
    var pages: [String: MarkdownSections] = [:]
    for step in NextStep.table {
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
        section.contains("**What to do:** " + step.whatToDo),
        "\(step.subject.name): docs/\(step.anchor) does not say `**What to do:** \(step.whatToDo)`")
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
