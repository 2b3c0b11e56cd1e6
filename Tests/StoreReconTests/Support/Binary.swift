import Foundation

/// Runs the built `storerecon` binary as a user would, capturing stdout, stderr and the exit code.
enum Binary {
  struct Output {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The package root (two levels above this file's folder).
  static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The built executable, next to the test bundle.
  static var path: String? {
    var candidates: [URL] = []
    let main = Bundle.main.bundleURL
    candidates.append(main.appendingPathComponent("storerecon"))
    candidates.append(main.deletingLastPathComponent().appendingPathComponent("storerecon"))
    for config in ["debug", "release"] {
      candidates.append(packageRoot.appendingPathComponent(".build/\(config)/storerecon"))
    }
    return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static func run(_ arguments: [String], in directory: URL? = nil) throws -> Output {
    guard let path else { throw CocoaError(.fileNoSuchFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting so a chatty child never blocks on a full pipe.
    let group = DispatchGroup()
    var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// A fresh temporary folder.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storerecon-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
