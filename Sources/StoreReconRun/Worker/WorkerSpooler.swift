import Foundation
package import StoreReconCore

/// Reads the worker protocol as it streams in and writes each engine-keyed input's lines into a
/// scratch file, each line at its own line number (the lines between stay empty, which every reader
/// skips), so that rejects and duplicates name the original lines.
///
/// An engine sends one input's lines mostly in order (a tagging task reads its file from the top):
/// those go straight to the file. A line that comes after a later one of its input is held back and
/// merged in at the end, so memory holds only the lines that came out of order.
package final class WorkerSpooler {
  package struct Head {
    package var spec: PartitionSpec
    package var inputsDigest: String
  }

  private struct Target {
    package let path: String
    package let display: String
    package let handle: FileHandle
    package var at = 0
    package var buffer: [UInt8] = []
    package var late: [(Int, [UInt8])] = []
  }

  private var targets: [Int: Target] = [:]
  private var pending: [UInt8] = []
  private var lineNumber = 0
  private var head: [String] = []
  private var parsedHead: Head?
  private var ended = false

  /// A spooler writing a file in `folder` for each of `keyed`.
  package init(plan: [ReconciliationRun.PlannedInput], keyed: Set<Int>, folder: String) throws(RunError) {
    for index in keyed.sorted() {
      var name = (plan[index].display as NSString).lastPathComponent
      for suffix in [".gz", ".zip"] where name.lowercased().hasSuffix(suffix) {
        name.removeLast(suffix.count)
      }
      let path = "\(folder)/\(index)-\(name)"
      guard FileManager.default.createFile(atPath: path, contents: nil),
        let handle = FileHandle(forWritingAtPath: path)
      else { throw RunError(.ioError, "worker: cannot write \(path)") }
      targets[index] = Target(path: path, display: plan[index].display, handle: handle)
    }
  }

  private func fail(_ reason: String) -> RunError {
    RunError(.dataError, "worker: stdin line \(lineNumber): \(reason)")
  }

  /// Takes the next bytes of the stream.
  package func feed(_ chunk: [UInt8]) throws(RunError) {
    var start = 0
    if !pending.isEmpty, let nl = chunk.firstIndex(of: 0x0A) {
      pending += chunk[..<nl]
      let line = pending
      pending = []
      try take(line[...])
      start = nl + 1
    } else if !pending.isEmpty {
      pending += chunk
      return
    }
    while start < chunk.count, let nl = chunk[start...].firstIndex(of: 0x0A) {
      try take(chunk[start..<nl])
      start = nl + 1
    }
    pending += chunk[start...]
  }

  private func take(_ line: ArraySlice<UInt8>) throws(RunError) {
    lineNumber += 1
    if line.isEmpty { return }
    if ended { throw fail("text after the 'end' line") }
    guard parsedHead != nil else { return try takeHead(line) }
    if line.elementsEqual("end".utf8) {
      ended = true
      return
    }
    let l: WorkerLines.Line
    do {
      l = try WorkerLines.parseLine(line, line: lineNumber)
    } catch {
      throw fail(error.reason)
    }
    guard var t = targets[l.input] else {
      throw RunError(
        .dataError, "worker: lines of input \(l.input), which is not engine-keyed in this config's plan")
    }
    if l.number > t.at {
      t.buffer += [UInt8](repeating: 0x0A, count: l.number - t.at - 1)
      t.buffer += l.bytes
      t.buffer.append(0x0A)
      t.at = l.number
      if t.buffer.count >= 1 << 20 { try flush(&t) }
    } else {
      t.late.append((l.number, l.bytes))
    }
    targets[l.input] = t
  }

  private func takeHead(_ line: ArraySlice<UInt8>) throws(RunError) {
    let text = String(decoding: line, as: UTF8.self)
    head.append(text)
    switch head.count {
    case 1:
      guard text == WorkerLines.header else {
        throw fail("expected '\(WorkerLines.header)' (is this the worker protocol?)")
      }
    case 2:
      let f = text.split(separator: "\t").map(String.init)
      guard f.count == 3, f[0] == "partition", let i = Int(f[1]), let n = Int(f[2]),
        PartitionSpec(index: i, count: n) != nil
      else { throw fail("expected 'partition<TAB>I<TAB>N'") }
    default:
      let f = text.split(separator: "\t").map(String.init)
      guard f.count == 2, f[0] == "inputs" else { throw fail("expected 'inputs<TAB><sha-256>'") }
      let p = head[1].split(separator: "\t")
      guard let spec = PartitionSpec(index: Int(p[1]) ?? -1, count: Int(p[2]) ?? -1) else {
        throw fail("expected 'partition<TAB>I<TAB>N'")
      }
      parsedHead = Head(spec: spec, inputsDigest: f[1])
    }
  }

  private func flush(_ t: inout Target) throws(RunError) {
    guard !t.buffer.isEmpty else { return }
    do {
      try t.handle.write(contentsOf: Data(t.buffer))
    } catch {
      throw RunError(.ioError, "worker: cannot write \(t.path): \(error.localizedDescription)")
    }
    t.buffer.removeAll(keepingCapacity: true)
  }

  /// Ends the stream: checks it was whole, writes what is held back; returns the head and the files.
  package func finish() throws(RunError) -> (Head, [Int: String]) {
    if !pending.isEmpty {
      let line = pending
      pending = []
      try take(line[...])
    }
    guard let parsedHead, ended else {
      throw fail("stdin ends before the 'end' line (the engine's pipe was cut short?)")
    }
    var paths: [Int: String] = [:]
    for (index, var t) in targets {
      try flush(&t)
      try? t.handle.close()
      if !t.late.isEmpty { try mergeLate(t) }
      paths[index] = t.path
    }
    return (parsedHead, paths)
  }

  /// Rewrites a file with the lines that came out of order put in their places.
  private func mergeLate(_ t: Target) throws(RunError) {
    let late = t.late.sorted { $0.0 < $1.0 }
    var lines: [ArraySlice<UInt8>] = []
    do {
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: t.path)))
      lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
      if lines.last?.isEmpty == true { lines.removeLast() }
    } catch {
      throw RunError(.ioError, "worker: cannot read \(t.path): \(error.localizedDescription)")
    }
    for (k, (number, bytes)) in late.enumerated() {
      if k > 0 && late[k - 1].0 == number || number <= lines.count && !lines[number - 1].isEmpty {
        throw RunError(.dataError, "worker: line \(number) of \(t.display) is given twice")
      }
      while lines.count < number { lines.append([]) }
      lines[number - 1] = bytes[...]
    }
    var out: [UInt8] = []
    for l in lines {
      out += l
      out.append(0x0A)
    }
    guard FileManager.default.createFile(atPath: t.path, contents: Data(out)) else {
      throw RunError(.ioError, "worker: cannot write \(t.path)")
    }
  }
}
