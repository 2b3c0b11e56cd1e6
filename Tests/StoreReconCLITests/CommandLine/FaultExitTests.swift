import Foundation
import StoreReconTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A SIGBUS — what reading a mapped input raises once the file has shrunk under the run — is one line
/// on stderr and exit 74, not a crash report; nothing is published.
struct FaultExitTests {
  @Test func aBusErrorIsOneLineAndExit74() throws {
    let dir = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // A demo big enough to be still working when the signal comes.
    let running = try Binary.start([
      "demo", "--users", "200000", "--out", dir.appendingPathComponent("w").path,
    ])
    usleep(700_000)
    #expect(kill(running.process.processIdentifier, SIGBUS) == 0)
    let out = try Binary.finish(running)
    #expect(out.status == 74, "\(out.stderr)")
    let last = out.stderr.split(separator: "\n").last.map(String.init) ?? ""
    #expect(
      last
        == "storerecon: an input file changed or shrank while the run read it (SIGBUS on its mapped pages); nothing was published; run again once the exports are complete"
    )
    #expect(
      !out.stderr.contains("Crash") && !out.stderr.contains("backtrace") && !out.stderr.contains("Fatal"))
    #expect(
      !FileManager.default.fileExists(
        atPath: dir.appendingPathComponent("w/reports/2026-11-29/manifest.json").path))
  }
}
