import Foundation

/// The shared sample files beside the project (`../shared/samples`), when present.
enum Samples {
  /// `<package root>/../shared/samples`, resolved from this file's path.
  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Tests/StoreReconImportersTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package root
    .deletingLastPathComponent()  // the folder beside it
    .appendingPathComponent("shared/samples")

  /// Whether the samples folder exists.
  static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

  /// The path of a sample file.
  static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }
}
