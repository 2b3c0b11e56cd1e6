package import Foundation

/// Runs the built `storerecon` binary as a user would, capturing stdout, stderr and the exit code.
///
/// SwiftPM builds the binary before the tests that run it because their targets depend on the
/// `storerecon` executable target (Package.swift).
package enum Binary {
  package struct Output {
    package var status: Int32
    package var stdout: String
    package var stderr: String
  }

  /// The package root (two levels above this file's folder, Sources/StoreReconTestSupport).
  package static let packageRoot: URL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

  /// The built executable, next to the test bundle, or in the package's .build folder.
  package static var path: String? {
    var candidates: [URL] = []
    let main = Bundle.main.bundleURL
    candidates.append(main.appendingPathComponent("storerecon"))
    candidates.append(main.deletingLastPathComponent().appendingPathComponent("storerecon"))
    for config in ["debug", "release"] {
      candidates.append(packageRoot.appendingPathComponent(".build/\(config)/storerecon"))
    }
    return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// `storerecon-worker`, built beside the binary (docs/partitions.md#the-worker-protocol).
  package static var workerPath: String? {
    guard let main = path else { return nil }
    let worker = URL(fileURLWithPath: main).deletingLastPathComponent().appendingPathComponent(
      "storerecon-worker")
    return FileManager.default.isExecutableFile(atPath: worker.path) ? worker.path : nil
  }

  /// Runs the binary with `arguments`; `environment` adds to (or, with a `nil` value, removes from)
  /// the test process's environment.
  package static func run(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]
  ) throws
    -> Output
  {
    try finish(start(arguments, in: directory, environment: environment))
  }

  /// A started binary whose output goes to files; ``finish(_:)`` waits for it.
  package struct Running {
    package var process: Process
    package var directory: URL
    var out: FileHandle
    var err: FileHandle
  }

  /// Starts the binary without waiting for it.
  package static func start(
    _ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:]
  ) throws
    -> Running
  {
    guard let path else { throw CocoaError(.fileNoSuchFile) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      var env = ProcessInfo.processInfo.environment
      for (key, value) in environment { env[key] = value }
      process.environment = env
    }
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
    return Running(process: process, directory: dir, out: out, err: err)
  }

  /// Waits for a started binary and collects its output.
  package static func finish(_ running: Running) throws -> Output {
    running.process.waitUntilExit()
    try running.out.close()
    try running.err.close()
    let dir = running.directory
    defer { try? FileManager.default.removeItem(at: dir) }
    return Output(
      status: running.process.terminationStatus,
      stdout: String(decoding: try Data(contentsOf: dir.appendingPathComponent("stdout")), as: UTF8.self),
      stderr: String(decoding: try Data(contentsOf: dir.appendingPathComponent("stderr")), as: UTF8.self))
  }

  /// A fresh temporary folder.
  package static func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storerecon-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
