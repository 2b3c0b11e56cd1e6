import Testing
import StoreReconCore
import StoreReconIO
import StoreReconPlatform
import StoreReconTestSupport

/// A long read shows its share of the file and the time left, through the run's progress sink.
struct ReadProgressTests {
  @Test func aLongLineReadReportsItsShareOfTheFile() throws {
    let dir = try TempDir()
    // 4 MB: the line reader reads 1 MiB at a time, so it reports at least four times.
    let line = String(repeating: "x", count: 99) + "\n"
    let path = try dir.write("big.csv", String(repeating: line, count: 40_000))
    let sink = MemoryProgress()
    // A read this short is quiet by default: `quiet: .zero` makes it show as a long one would.
    let meter = ReadProgress(
      label: "app.notifications big.csv", totalBytes: 4_000_000, sink: sink, quiet: .zero)
    var lines = 0
    try ReadProgress.during(meter) { () throws(InputError) in
      let reader = try LineReader(path: path, displayName: "big.csv")
      while try reader.next() != nil { lines += 1 }
    }
    #expect(lines == 40_000)
    #expect(sink.lines.count >= 4, "\(sink.lines)")
    #expect(sink.lines.allSatisfy { $0.hasPrefix("reading app.notifications big.csv: ") }, "\(sink.lines)")
    #expect(
      sink.lines.contains { $0.contains("% of 4.0 MB, about ") && $0.hasSuffix(" s left") }, "\(sink.lines)")
    #expect(sink.lines.last?.contains(": 100 % of 4.0 MB") == true, "\(sink.lines)")
    // Once the read is over, nothing reports to its meter.
    ReadProgress.advance(bytes: 1)
    #expect(sink.lines.count < 12)
  }

  @Test func decodedRowsAreWhatCounts() {
    let sink = MemoryProgress()
    let meter = ReadProgress(label: "log", totalBytes: 1000, sink: sink, decodes: true, quiet: .zero)
    meter.update(bytes: 1000)  // read, not yet decoded: nothing is done
    #expect(sink.lines.isEmpty || sink.lines.allSatisfy { $0.contains(": 0 %") }, "\(sink.lines)")
    meter.update(decoded: 1, of: 2)
    #expect(sink.lines.last?.hasPrefix("reading log: 50 % of 1.0 kB") == true, "\(sink.lines)")
    meter.update(decoded: 2, of: 2)
    #expect(sink.lines.last?.hasPrefix("reading log: 100 %") == true, "\(sink.lines)")
  }

  @Test func aShortReadSaysNothing() {
    let sink = MemoryProgress()
    let meter = ReadProgress(label: "small", totalBytes: 10, sink: sink)
    meter.update(bytes: 5)
    meter.update(bytes: 10)
    #expect(sink.lines.isEmpty)
  }

  @Test func sizes() {
    #expect(ReadProgress.size(4_700_000_000) == "4.7 GB")
    #expect(ReadProgress.size(312_000_000) == "312 MB")
    #expect(ReadProgress.size(18_400) == "18 kB")
    #expect(ReadProgress.size(999) == "999 B")
  }
}
