import Testing

/// The tidy checkers on small synthetic inputs, so a checker that stops finding what it should fails here
/// and not silently in TidyTreeTests.swift.
@Suite("Tidy checkers")
struct TidyCheckerTests {
  private func core(_ text: String) -> TidyFile {
    TidyFile(path: "Sources/StoreReconCore/Chain.swift", text: text)
  }

  // MARK: 9. The time window

  @Test("a reader of a process-wide time window is flagged anywhere; a window value is not")
  func timeWindowGlobal() {
    let reader = TidyFile(
      path: "Sources/StoreReconImporters/NewImporter.swift",
      text: "// StoreTimeWindow.problem in a comment\nlet p = StoreTimeWindow.problem(\"at\", ms)\n"
        + "let q = window.problem(\"at\", ms)\nlet w = StoreTimeWindow.ofTheRun\nStoreTimeWindow.set(asOf: t)\n"
    )
    #expect(TidyTimeWindow.check([reader]).map(\.line) == [2, 4, 5])
    let stripe = TidyFile(
      path: "Sources/StoreReconImporters/Stripe/StripeObject.swift",
      text: "_ = StoreTimeWindow.problem(k, s)\n")
    #expect(TidyTimeWindow.check([stripe]).map(\.line) == [1])
    let value = TidyFile(
      path: "Sources/StoreReconRun/X.swift",
      text: "let w = StoreTimeWindow(asOf: t)\nlet s = StoreTimeWindow.standalone\n")
    #expect(TidyTimeWindow.check([value]) == [])
  }

  // MARK: 1. Imports

  @Test("a Core file importing Foundation is flagged, at its line")
  func coreImportingFoundation() {
    let violations = TidyImports.check(core("// Chains.\n\nimport Foundation\n"))
    #expect(violations.map(\.line) == [3])
    #expect(
      violations.first?.message.contains("`import Foundation` is not allowed in target StoreReconCore")
        == true)
    #expect(violations.first?.description.hasPrefix("Sources/StoreReconCore/Chain.swift:3: ") == true)
  }

  @Test("a Core file importing StoreReconPlatform is not flagged")
  func coreImportingPlatform() {
    #expect(TidyImports.check(core("internal import StoreReconPlatform\n")) == [])
  }

  @Test("every import form names its module")
  func importForms() {
    let text = """
      import Foundation
      internal import Glibc
      package import Dispatch
      public import Synchronization
      @preconcurrency import CZlib
      @_implementationOnly import CCrypto
      import struct FoundationEssentials.Date
      import CLibPQ.Submodule
      @testable import StoreReconIO
      import Darwin
      """
    let modules = TidyImports.imports(in: ScannedSource(text)).map(\.module)
    #expect(
      modules == [
        "Foundation", "Glibc", "Dispatch", "Synchronization", "CZlib", "CCrypto", "FoundationEssentials",
        "CLibPQ", "StoreReconIO", "Darwin",
      ])
    // All but Darwin (not a known module) are forbidden in Core.
    #expect(TidyImports.check(core(text)).map(\.line) == Array(1...9))
  }

  @Test("imports inside comments and strings are not imports")
  func importsInCommentsAndStrings() {
    let text = """
      // import Foundation
      /* import Glibc */
      let example = "import CZlib"
      """
    #expect(TidyImports.check(core(text)) == [])
  }

  @Test("wildcards: the executables may import any StoreRecon module, CLI anything")
  func wildcards() {
    let text = "import StoreReconCLI\nimport StoreRecon\nimport CLibPQ\n"
    let tool = TidyFile(path: "Sources/storerecon/main.swift", text: text)
    #expect(TidyImports.check(tool).map(\.line) == [3])
    #expect(TidyImports.check(TidyFile(path: "Sources/StoreReconCLI/Run.swift", text: text)) == [])
  }

  @Test("a target folder missing from the table is flagged once; a known one is not")
  func unknownTargetFolders() {
    let files = [
      TidyFile(path: "Sources/StoreReconNew/A.swift", text: ""),
      TidyFile(path: "Sources/StoreReconNew/Sub/B.swift", text: ""),
      TidyFile(path: "Sources/StoreReconCore/C.swift", text: ""),
      TidyFile(path: "Tests/StoreReconTests/D.swift", text: ""),
    ]
    #expect(TidyImports.unknownTargets(files).map(\.path) == ["Sources/StoreReconNew"])
  }

  // MARK: 2. Pointer code

  @Test("pointer tokens in comments and string literals are not pointer code")
  func pointerTokensInCommentsAndStrings() {
    let text = #"""
      // UnsafePointer<UInt8>
      /* data.withUnsafeBytes { $0.baseAddress } /* nested: OpaquePointer */ Unmanaged */
      let a = "UnsafeRawPointer \(count) withMemoryRebound"
      let b = #"buffer.baseAddress \(x) \"# + "bindMemory"
      let c = """
        assumingMemoryBound "quoted" UnsafeMutableBufferPointer
        """
      let baseAddress = 1
      """#
    #expect(TidyPointers.uses(in: ScannedSource(text)) == [])
  }

  @Test("pointer code is found, in code and in interpolations, once per line")
  func pointerCode() {
    let text = #"""
      let p: UnsafePointer<UInt8>? = nil
      data.withUnsafeBytes { raw in print(raw) }
      let s = "start: \(buffer.baseAddress) end"
      let q = unsafeBitCast(x, to: Int.self); let r = Unmanaged.passRetained(y)
      """#
    let uses = TidyPointers.uses(in: ScannedSource(text))
    #expect(uses.map(\.line) == [1, 2, 3, 4])
    #expect(uses.map(\.text) == ["UnsafePointer", "withUnsafeBytes", ".baseAddress", "unsafeBitCast"])
  }

  @Test("pointer code outside the fence fails unless listed; stale list lines fail")
  func pointerFence() {
    let code = "let x = 1\nbuffer.withUnsafeMutableBufferPointer { _ in }\n"
    let files = [
      TidyFile(path: "Sources/StoreReconCore/Free.swift", text: code),
      TidyFile(path: "Sources/StoreReconPlatform/Memory.swift", text: code),
      TidyFile(path: "Sources/StoreReconCore/Table+Unsafe.swift", text: code),
      TidyFile(path: "Sources/StoreReconCore/Listed.swift", text: code),
      TidyFile(path: "Sources/StoreReconCore/Clean.swift", text: "let x = 1\n"),
    ]
    let allowlist = """
      # header
      Sources/StoreReconCore/Listed.swift
      Sources/StoreReconCore/Clean.swift
      Sources/StoreReconCore/Gone.swift
      Sources/StoreReconPlatform/Memory.swift
      """
    let violations = TidyPointers.check(files, allowlist: allowlist).map(\.description)
    let list = TidyPointers.allowlistPath
    #expect(
      violations == [
        "Sources/StoreReconCore/Free.swift:2: pointer code (`withUnsafeMutableBufferPointer`) outside the "
          + "fence: move it to StoreReconPlatform or to a file whose name contains `Unsafe` (the allowlist "
          + "\(list) may only shrink)",
        "\(list):3: Sources/StoreReconCore/Clean.swift has no pointer code any more: remove this line",
        "\(list):4: Sources/StoreReconCore/Gone.swift does not exist (moved? regenerate the list with "
          + "make-allowlists.sh): remove this line",
        "\(list):5: Sources/StoreReconPlatform/Memory.swift is fenced already (StoreReconPlatform, or "
          + "`Unsafe` in its name): remove this line",
      ])
    #expect(
      TidyPointers.allowlist(for: files).hasSuffix(
        "\nSources/StoreReconCore/Free.swift\nSources/StoreReconCore/Listed.swift\n"))
  }
}

/// Rule 5 on small synthetic trees.
@Suite("Tidy checkers: Core's folder order")
struct TidyCoreOrderTests {
  private func file(_ folder: String, _ name: String, _ text: String) -> TidyFile {
    TidyFile(path: "Sources/StoreReconCore/\(folder)/\(name).swift", text: text)
  }

  private let order = ["Model", "Ledger", "Reconcile"]

  @Test("a Model file naming a Ledger type is flagged once, at its first use")
  func wrongDirection() {
    let files = [
      file("Ledger", "Chain", "package struct Chain {}\n"),
      file("Model", "Order", "struct Order {\n  var a: Chain\n  var b: Chain\n}\n"),
    ]
    let violations = TidyCoreOrder.check(files, order: order)
    #expect(violations.map(\.path) == ["Sources/StoreReconCore/Model/Order.swift"])
    #expect(violations.map(\.line) == [2])
    #expect(violations.first?.message.contains("`Chain` is declared in Core/Ledger") == true)
  }

  @Test("the right direction, member names, nested types of the same name and comments pass")
  func rightDirection() {
    let files = [
      file("Model", "Instant", "package struct Instant {}\n"),
      file("Reconcile", "Finding", "package struct Finding {}\nstruct Key {}\n"),
      file(
        "Ledger", "Chain",
        """
        // A Finding is made from chains later.
        struct Chain {
          var at: Instant
          enum Key { case a }
          var key: Key
          var text = "Finding"
          func f(_ x: Chain) { _ = x.Finding }
        }
        """),
    ]
    #expect(TidyCoreOrder.check(files, order: order) == [])
  }

  @Test("a Core folder missing from the order is flagged")
  func unknownFolder() {
    let files = [file("Gadgets", "Gadget", "struct Gadget {}\n")]
    #expect(TidyCoreOrder.check(files, order: order).map(\.path) == ["Sources/StoreReconCore/Gadgets"])
  }
}

/// Rules 6 and 7 on small synthetic files.
@Suite("Tidy checkers: the C library, threads and +Unsafe entries")
struct TidyPlatformNamesTests {
  @Test("a libc call or a lock outside Platform is flagged unless listed; members and Platform pass")
  func platformNames() {
    let run = TidyFile(
      path: "Sources/StoreReconRun/Write.swift",
      text: "let lock = NSLock()\nfunc f() { _ = rename(a, b); _ = x.rename(a, b); _ = getpid }\n")
    let platform = TidyFile(path: "Sources/StoreReconPlatform/File.swift", text: "_ = rename(a, b)\n")
    let member = TidyFile(path: "Sources/StoreReconIO/Member.swift", text: "func rename(_ a: Int) {}\n")
    let violations = TidyPlatformNames.check([run, platform, member], allowlist: "")
    #expect(violations.map(\.line) == [1, 2])
    #expect(violations.first?.message.contains("`NSLock` outside StoreReconPlatform") == true)
    #expect(TidyPlatformNames.check([run], allowlist: run.path + "\n") == [])
    #expect(
      TidyPlatformNames.check([member], allowlist: member.path + "\n").map(\.path)
        == [TidyPlatformNames.allowlistPath])
  }

  @Test("a +Unsafe file needs a Safety: line above its first declaration")
  func unsafeEntry() {
    let stated = TidyFile(
      path: "Sources/StoreReconCore/Ledger/Table+Unsafe.swift",
      text:
        "import StoreReconPlatform\n\n/// A table.\n///\n/// Safety: `count` slots are allocated.\nstruct T {}\n"
    )
    let late = TidyFile(
      path: "Sources/StoreReconCore/Ledger/Late+Unsafe.swift",
      text: "struct T {\n  // Safety: too late, inside.\n}\n")
    let plain = TidyFile(path: "Sources/StoreReconCore/Ledger/Table.swift", text: "struct T {}\n")
    #expect(TidyUnsafeEntry.check([stated, late, plain], allowlist: "").map(\.path) == [late.path])
    #expect(TidyUnsafeEntry.check([stated, late], allowlist: late.path + "\n") == [])
    #expect(
      TidyUnsafeEntry.check([stated], allowlist: stated.path + "\n").map(\.path)
        == [TidyUnsafeEntry.allowlistPath])
  }
}

/// Rule 8 on a small manifest and table.
@Suite("Tidy checkers: the architecture table")
struct TidyArchitectureTests {
  let manifest = """
    .target(name: "StoreReconCore", dependencies: ["StoreReconPlatform"]),
    .target(
      name: "StoreReconIO", dependencies: ["StoreReconCore", "CZlib"],
      swiftSettings: hotLoops),
    .executableTarget(name: "storerecon", dependencies: ["StoreReconIO"]),
    .testTarget(name: "StoreReconIOTests", dependencies: ["StoreReconIO"]),
    """

  @Test("a table that matches passes; a changed dependency, a missing and an extra row fail")
  func table() {
    let good = """
      ## Dependencies

      | target | depends on |
      | --- | --- |
      | StoreReconCore | Platform |
      | StoreReconIO | Core, CZlib |
      | storerecon | IO |
      """
    #expect(TidyArchitecture.check(manifest: manifest, doc: good) == [])
    let bad = """
      ## Dependencies

      | target | depends on |
      | --- | --- |
      | StoreReconCore | Platform, Glibc |
      | StoreReconIO | Core |
      | StoreReconGone | Core |
      """
    let messages = TidyArchitecture.check(manifest: manifest, doc: bad).map(\.message)
    #expect(messages.count == 3)
    #expect(messages.contains { $0.hasPrefix("IO depends on CZlib, Core in Package.swift") })
    #expect(messages.contains { $0.hasPrefix("target storerecon (Package.swift) has no row") })
    #expect(messages.contains { $0.hasPrefix("Gone is not a target") })
  }
}
