import Foundation
package import StoreReconPlatform
package import StoreReconCore
package import StoreReconReports

/// A reject sink that writes each input's rejected rows to its rejects file as they are found (in
/// blocks of ``blockSize``), checksumming as it goes, and keeps only the first ``shownLimit`` in memory
/// for the workbook: memory stays bounded however many rows an input rejects. Past `writeLimit`
/// rejects (a damaged input whose run is going to stop) it only counts them.
package final class RejectFileSink: RejectSink, @unchecked Sendable {
  /// How many rejects of one input the workbook shows.
  package static let shownLimit = 1_000
  /// Rejects rendered and written at once.
  package static let blockSize = 4_096

  /// The file's name in the output folder (`rejects/<input>.csv`).
  package let name: String
  private let handle: FileHandle?
  private var pending: [Reject] = []
  private var digest: SHA256Digest? = SHA256Digest()
  private let writeLimit: Int
  /// Bytes written so far.
  private(set) var bytes: Int64 = 0
  /// Every reject received.
  private(set) var count = 0
  /// The first ``shownLimit`` rejects, their raw text cut to the reports' excerpt.
  private(set) var first: [Reject] = []
  /// With ``keepsAll``: every reject, as received (a worker's partial carries them).
  private(set) var all: [Reject] = []
  package var keepsAll = false
  /// Why the file could not be written, if it could not.
  private(set) var failure: String?

  /// A sink writing `folder/name` (created empty, with its header, at once).
  package init(folder: String, name: String, writeLimit: Int = Int.max) {
    self.name = name
    self.writeLimit = writeLimit
    let path = folder + "/" + name
    let parent = (path as NSString).deletingLastPathComponent
    try? FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
    if FileManager.default.createFile(atPath: path, contents: nil) {
      handle = FileHandle(forWritingAtPath: path)
    } else {
      handle = nil
      failure = "cannot create \(path)"
    }
    write(ReportTables.rejectsCSV([]))
  }

  package func reject(_ reject: Reject) {
    count += 1
    if keepsAll { all.append(reject) }
    if first.count < RejectFileSink.shownLimit {
      var shown = reject
      shown.raw = ReportTables.rawExcerpt(reject.raw)
      first.append(shown)
    }
    guard count <= writeLimit else { return }
    pending.append(reject)
    if pending.count >= RejectFileSink.blockSize { flush() }
  }

  /// Writes the rejects held back so far (without the header line the renderer starts with).
  private func flush() {
    guard !pending.isEmpty else { return }
    let block = ReportTables.rejectsCSV(pending)
    pending.removeAll(keepingCapacity: true)
    let headerEnd = (block.firstIndex(of: 0x0A) ?? -1) + 1
    write(Array(block[headerEnd...]))
  }

  private func write(_ block: [UInt8]) {
    digest?.update(block)
    bytes += Int64(block.count)
    guard let handle, failure == nil else { return }
    do {
      try handle.write(contentsOf: Data(block))
    } catch {
      failure = "cannot write \(name): \(error.localizedDescription)"
    }
  }

  /// Writes what is held back and closes the file; returns its size and SHA-256 (hex).
  package func finish() throws(RunError) -> (bytes: Int64, sha256: String) {
    flush()
    try? handle?.close()
    if let failure { throw RunError(.ioError, failure) }
    let sha = digest.take()?.finalizeHex() ?? ""
    return (bytes, sha)
  }
}
