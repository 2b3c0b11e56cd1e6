package import Foundation

/// A temporary directory for one test's fixture files, removed when it goes away.
package final class TempDir {
  package let url: URL

  package init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "storerecon-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside the directory.
  package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `bytes` to `name` and returns its path.
  @discardableResult
  package func write(_ name: String, bytes: [UInt8]) throws -> String {
    let path = path(name)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// Writes `text` as UTF-8 to `name` and returns its path.
  @discardableResult
  package func write(_ name: String, _ text: String) throws -> String {
    try write(name, bytes: Array(text.utf8))
  }

  /// Writes `text` gzip-compressed (by the `gzip` tool) to `name` and returns its path.
  @discardableResult
  package func writeGzip(_ name: String, _ text: String) throws -> String {
    try write(name, bytes: try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array(text.utf8)))
  }

  /// Writes a zip archive holding `entries` (name → text) made by Python's `zipfile`.
  ///
  /// `method` is a `zipfile` constant name (`ZIP_STORED`, `ZIP_DEFLATED`, `ZIP_BZIP2`);
  /// `streamed` writes to a pipe, so entries carry data descriptors (flag bit 3).
  @discardableResult
  package func writeZip(
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
