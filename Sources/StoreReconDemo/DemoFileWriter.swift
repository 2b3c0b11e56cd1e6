import Foundation

/// A file written through a 1 MB buffer, so millions of short lines cost few system calls.
final class DemoFileWriter {
  /// Path relative to the demo directory (`exports/apple/transactions.jsonl`).
  let relativePath: String
  private let handle: FileHandle
  private var buffer: [UInt8] = []
  private static let capacity = 1 << 20

  /// Creates (or truncates) `relativePath` under `directory`, creating folders as needed.
  init(directory: String, relativePath: String) throws {
    self.relativePath = relativePath
    let url = URL(fileURLWithPath: directory).appendingPathComponent(relativePath)
    do {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    } catch {
      throw DemoError.cannotWrite(url.path, "\(error)")
    }
    guard FileManager.default.createFile(atPath: url.path, contents: nil),
      let handle = FileHandle(forWritingAtPath: url.path)
    else { throw DemoError.cannotWrite(url.path, "cannot create the file") }
    self.handle = handle
    buffer.reserveCapacity(DemoFileWriter.capacity + 4096)
  }

  /// Appends literal text.
  func write(_ text: StaticString) throws {
    text.withUTF8Buffer { unsafe buffer.append(contentsOf: $0) }
    try flushIfFull()
  }

  /// Appends bytes.
  func write<C: Collection<UInt8>>(bytes: C) throws {
    buffer.append(contentsOf: bytes)
    try flushIfFull()
  }

  /// Appends a built line followed by a line feed.
  func writeLine(_ line: DemoLine) throws {
    buffer.append(contentsOf: line.bytes)
    buffer.append(0x0A)
    try flushIfFull()
  }

  private func flushIfFull() throws {
    if buffer.count >= DemoFileWriter.capacity { try flush() }
  }

  /// Writes the buffer out.
  func flush() throws {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw DemoError.cannotWrite(relativePath, "\(error)")
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Flushes and closes the file.
  func close() throws {
    try flush()
    do {
      try handle.close()
    } catch {
      throw DemoError.cannotWrite(relativePath, "\(error)")
    }
  }
}
