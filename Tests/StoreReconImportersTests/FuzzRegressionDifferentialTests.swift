import Foundation
import Testing
import StoreReconTestSupport

/// Every input the fuzzers kept (Fuzz/corpus/<target>/, docs/fuzzing.md) replayed through its target:
/// the crashes they found once, fixed since, must stay fixed. A target stops the process when its
/// property fails, so a regression fails the run loudly.
@Suite struct FuzzRegressionDifferentialTests {
  static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "../../Fuzz/corpus"
  ).standardized

  /// The kept inputs of `target`.
  static func kept(_ target: String) -> [URL] {
    let folder = corpus.appendingPathComponent(target)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test(arguments: FuzzTargets.names)
  func keptInputsStillPass(target: String) throws {
    for url in Self.kept(target) {
      let bytes = try [UInt8](Data(contentsOf: url))
      #expect(FuzzTargets.run(target, bytes: bytes), "\(url.lastPathComponent)")
    }
  }

  /// The targets run on their own seeds without stopping (they are the fuzzers' starting corpus).
  @Test(arguments: FuzzTargets.names)
  func seedsPass(target: String) {
    for seed in FuzzTargets.seeds(target).prefix(40) {
      #expect(FuzzTargets.run(target, bytes: seed))
    }
  }
}
