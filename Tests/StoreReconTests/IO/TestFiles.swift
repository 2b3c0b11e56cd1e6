import Foundation
@testable import StoreRecon

/// A temporary directory for one test's fixture files, removed when it goes away.
final class TempDir {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storerecon-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside the directory.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `bytes` to `name` and returns its path.
  @discardableResult
  func write(_ name: String, bytes: [UInt8]) throws -> String {
    let path = path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Writes `text` as UTF-8 to `name` and returns its path.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try write(name, bytes: Array(text.utf8))
  }

  /// Writes `text` gzip-compressed (by the `gzip` tool) to `name` and returns its path.
  @discardableResult
  func writeGzip(_ name: String, _ text: String) throws -> String {
    try write(name, bytes: try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array(text.utf8)))
  }

  /// Writes a zip archive holding `entries` (name → text) made by Python's `zipfile`.
  ///
  /// `method` is a `zipfile` constant name (`ZIP_STORED`, `ZIP_DEFLATED`, `ZIP_BZIP2`);
  /// `streamed` writes to a pipe, so entries carry data descriptors (flag bit 3).
  @discardableResult
  func writeZip(
    _ name: String, entries: [(String, String)], method: String = "ZIP_DEFLATED", streamed: Bool = false
  ) throws -> String {
    let path = path(name)
    var script = "import zipfile, sys\n"
    script += streamed ? "out = sys.stdout.buffer\n" : "out = open(\(pythonString(path)), 'wb')\n"
    script += "z = zipfile.ZipFile(out, 'w', zipfile.\(method))\n"
    for (entry, text) in entries {
      script += "z.writestr(\(pythonString(entry)), \(pythonString(text)).encode('utf-8'))\n"
    }
    script += "z.close()\nout.flush()\n"
    let output = try Tool.run("/usr/bin/env", ["python3", "-c", script], input: [])
    if streamed { try write(name, bytes: output) }
    return path
  }

  private func pythonString(_ text: String) -> String {
    let escaped = text.unicodeScalars.map { scalar -> String in
      scalar.isASCII && scalar.value >= 0x20 && scalar != "\\" && scalar != "'"
        ? String(scalar) : String(format: "\\U%08x", scalar.value)
    }
    return "'" + escaped.joined() + "'"
  }
}

/// Runs command-line tools for fixtures.
enum Tool {
  struct Failed: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `executable` with `arguments`, feeding `input` on stdin; returns stdout.
  static func run(_ executable: String, _ arguments: [String], input: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failed(
        description: "\(arguments.first ?? executable) failed: \(String(decoding: errors, as: UTF8.self))")
    }
    return Array(output)
  }
}

/// The shared sample files beside the project (`../shared/samples`), when present.
enum Samples {
  /// `<package root>/../shared/samples`, resolved from this file's path.
  static let directory: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Tests/StoreReconTests/IO
    .deletingLastPathComponent()  // Tests/StoreReconTests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()  // the package root
    .deletingLastPathComponent()  // the folder beside it
    .appendingPathComponent("shared/samples")

  /// Whether the samples folder exists.
  static var available: Bool { FileManager.default.fileExists(atPath: directory.path) }

  /// The path of a sample file.
  static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }
}

/// What one importer run produced.
struct ImportResult<Row> {
  var rows: [Row] = []
  var rejects: [Reject] = []
  var counts = InputCounts()
}

/// Runs a store importer over `path`, collecting records and rejects.
func runImporter(_ importer: some StoreImporter, _ path: String, name: String = "input") throws(InputError)
  -> ImportResult<StoreTransaction>
{
  let sink = RejectList()
  var rows: [StoreTransaction] = []
  let counts = try importer.read(path: path, displayName: name, fileIndex: 3, rejects: sink) {
    rows.append($0)
  }
  return ImportResult(rows: rows, rejects: sink.rejects, counts: counts)
}

/// Runs an app-row reader over `path`, collecting rows and rejects.
func runReader<R: AppRowReader>(_ reader: R, _ path: String, name: String = "rows.csv") throws(InputError)
  -> ImportResult<R.Row>
{
  let sink = RejectList()
  var rows: [R.Row] = []
  let counts = try reader.read(path: path, displayName: name, fileIndex: 1, rejects: sink) { rows.append($0) }
  return ImportResult(rows: rows, rejects: sink.rejects, counts: counts)
}

/// Every line a line reader gives for `path`, as strings with their numbers.
func readLines(_ path: String, chunkSize: Int = 1 << 20) throws -> [(Int, String)] {
  let reader = LineReader(source: try InputBytes.open(path: path), displayName: path, chunkSize: chunkSize)
  var lines: [(Int, String)] = []
  try reader.forEachLine { line, number in lines.append((number, String(decoding: line, as: UTF8.self))) }
  return lines
}
