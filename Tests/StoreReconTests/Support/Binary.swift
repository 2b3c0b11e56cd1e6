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

  /// Runs the binary; `environment` adds to (or, with an empty value, removes from) the test's environment.
  static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Output {
    guard let path else { throw CocoaError(.fileNoSuchFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if !environment.isEmpty {
      var env = ProcessInfo.processInfo.environment
      for (k, v) in environment { env[k] = v.isEmpty ? nil : v }
      process.environment = env
    }
    if let directory { process.currentDirectoryURL = directory }
    // Capture into files: no pipe can fill up and block the child.
    let dir = try temporaryDirectory()
    let outURL = dir.appendingPathComponent("stdout")
    let errURL = dir.appendingPathComponent("stderr")
    FileManager.default.createFile(atPath: outURL.path, contents: nil)
    FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let out = try FileHandle(forWritingTo: outURL)
    let err = try FileHandle(forWritingTo: errURL)
    process.standardOutput = out
    process.standardError = err
    try process.run()
    process.waitUntilExit()
    try out.close()
    try err.close()
    defer { try? FileManager.default.removeItem(at: dir) }
    return Output(
      status: process.terminationStatus, stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
  }

  /// A fresh temporary folder.
  static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("storerecon-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
