#if canImport(Glibc)
  import Glibc
#endif

/// A long input read's progress: the share of its bytes read and an estimate of the time left
/// (`reading app.notifications app/notifications.csv: 42 % of 4.7 GB, about 35 s left`), nothing for
/// a read done within ``quiet`` (most reads). Redrawn in place when the sink ``ProgressSink/redrawsInPlace``
/// (stderr is a terminal); else one line at each tenth, through the sink.
///
/// The readers do not hold it: they report to ``ReadProgress/advance(bytes:)`` or
/// ``ReadProgress/advance(_:of:)``, which find the meter the calling thread's read was given
/// (``ReadProgress/during(_:_:)``) and do nothing where there is none.
package final class ReadProgress: @unchecked Sendable {
  /// A read shorter than this shows no progress.
  package static let quietSeconds = 2

  private let label: String
  private let totalBytes: Int64
  private let sink: any ProgressSink
  private let inPlace: Bool
  private let quiet: Duration
  private let clock = ContinuousClock()
  private let started: ContinuousClock.Instant
  private var lastDrawn: ContinuousClock.Instant?
  /// Bytes the reader has read; of those, the ones whose rows are done (a decode phase lags behind).
  private var bytesRead: Int64 = 0
  private var doneBefore: Int64 = 0
  private var decodes: Bool
  private var shownBytes: Int64 = 0
  private var shownTenth = -1
  private var wroteInPlace = false

  /// Progress of reading `label` (`app.notifications app/notifications.csv`), a file of `totalBytes`;
  /// `decodes`: its rows are decoded after they are read (``decoding(_:of:)``), which is when their
  /// bytes are done.
  package init(
    label: String, totalBytes: Int64, sink: any ProgressSink, decodes: Bool = false,
    quiet: Duration = .seconds(quietSeconds)
  ) {
    self.decodes = decodes
    self.label = label
    self.totalBytes = totalBytes
    self.sink = sink
    self.inPlace = sink.redrawsInPlace
    self.quiet = quiet
    started = clock.now
  }

  /// `bytes` bytes of the file are read (and, unless the rows read are decoded later, done).
  package func update(bytes: Int64) {
    bytesRead = bytes
    draw(decodes ? doneBefore : bytes)
  }

  /// `done` of the `total` rows read since the last decode are decoded: the bytes they came from
  /// are done in that share.
  package func update(decoded done: Int, of total: Int) {
    decodes = true
    let batch = bytesRead - doneBefore
    draw(doneBefore + (total > 0 ? batch * Int64(done) / Int64(total) : batch))
    if done >= total { doneBefore = bytesRead }
  }

  /// Shows `done` bytes done (never fewer than shown before).
  private func draw(_ bytes: Int64) {
    guard totalBytes > 0 else { return }
    let done = min(max(bytes, shownBytes, 0), totalBytes)
    shownBytes = done
    let now = clock.now
    let elapsed = now - started
    guard elapsed >= quiet else { return }
    let percent = Int(done * 100 / totalBytes)
    if inPlace {
      if let last = lastDrawn, now - last < .milliseconds(500) { return }
      StandardError.write("\rstorerecon: \(line(done, percent: percent, elapsed: elapsed))\u{1B}[K")
      wroteInPlace = true
    } else {
      guard percent / 10 > shownTenth else { return }
      shownTenth = percent / 10
      sink.note(line(done, percent: percent, elapsed: elapsed))
    }
    lastDrawn = now
  }

  /// The line: share, size and the time left at the rate so far.
  func line(_ done: Int64, percent: Int, elapsed: Duration) -> String {
    var text = "reading \(label): \(percent) % of \(Self.size(totalBytes))"
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    if done > 0 && seconds > 0 {
      let left = Double(totalBytes - done) / (Double(done) / seconds)
      text += ", about \(Int(left.rounded(.up))) s left"
    }
    return text
  }

  /// Ends the in-place line (a terminal), so that the next line starts clean.
  package func finish() {
    if wroteInPlace { StandardError.write("\r\u{1B}[K") }
    wroteInPlace = false
  }

  /// `4.7 GB`, `312 MB`, `18 kB` (decimal units).
  package static func size(_ bytes: Int64) -> String {
    let units: [(Int64, String)] = [(1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "kB")]
    for (unit, name) in units where bytes >= unit {
      let tenths = bytes * 10 / unit
      return tenths >= 100 ? "\(tenths / 10) \(name)" : "\(tenths / 10).\(tenths % 10) \(name)"
    }
    return "\(bytes) B"
  }

  // MARK: the meter of each thread's read

  private static let lock = Lock()
  nonisolated(unsafe) private static var meters: [UInt: ReadProgress] = [:]

  private static var thread: UInt { UInt(pthread_self()) }

  /// Runs `body` (a read on this thread) with `meter` receiving its progress; finishes the meter.
  package static func during<T, E: Error>(_ meter: ReadProgress?, _ body: () throws(E) -> T) throws(E) -> T {
    guard let meter else { return try body() }
    let id = thread
    lock.locked { meters[id] = meter }
    defer {
      lock.locked { meters[id] = nil }
      meter.finish()
    }
    return try body()
  }

  /// This thread's read has read `bytes` bytes of its file.
  package static func advance(bytes: Int64) {
    let id = thread
    guard let meter = lock.locked({ meters[id] }) else { return }
    meter.update(bytes: bytes)
  }

  /// This thread's read has decoded `done` of the `total` rows it read since its last decode.
  package static func decoding(_ done: Int, of total: Int) {
    let id = thread
    guard let meter = lock.locked({ meters[id] }) else { return }
    meter.update(decoded: done, of: total)
  }

  /// This thread's read has taken `done` of its `total` equal parts (chunks) of its file.
  package static func advance(_ done: Int, of total: Int) {
    let id = thread
    guard total > 0, let meter = lock.locked({ meters[id] }) else { return }
    meter.update(bytes: meter.totalBytes * Int64(done) / Int64(total))
  }
}
