// The libFuzzer entry points shared by every target (scripts/fuzz compiles this file with the target's
// Fuzz/<name>/main.swift, which names it, and the package's modules built with -sanitize=fuzzer,address).
import Foundation
import StoreReconTestSupport

/// One input: the target's property (``FuzzTargets``); `approws` is defined in Fuzz/AppRowsTarget.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  if fuzzTarget == "approws" {
    AppRowsTarget.run(bytes)
  } else if !FuzzTargets.run(fuzzTarget, bytes) {
    fatalError("unknown fuzz target \(fuzzTarget)")
  }
  return 0
}

/// Before the run: with `STORERECON_FUZZ_SEEDS=<folder>` set, writes the generated seeds there.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
  _ argc: UnsafeMutablePointer<CInt>?,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> CInt {
  guard let folder = ProcessInfo.processInfo.environment["STORERECON_FUZZ_SEEDS"] else { return 0 }
  let seeds = fuzzTarget == "approws" ? AppRowsTarget.seeds : FuzzTargets.seeds(fuzzTarget)
  for (n, seed) in seeds.enumerated() {
    _ = FileManager.default.createFile(atPath: "\(folder)/gen-\(n)", contents: Data(seed))
  }
  return 0
}
