import Foundation
import StoreReconPlatform
import StoreReconCore
import StoreReconImporters

#if canImport(Glibc)
  import Glibc
#endif

// storerecon-bench FILE… [--threads N] [--repeat N]: importer throughput alone, per file and per format.

AllocatorTuning.apply()
var files: [String] = []
var threads = 1
var repeats = 3
var merge = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--threads": threads = Int(arguments.popFirst() ?? "") ?? 1
  case "--repeat": repeats = Int(arguments.popFirst() ?? "") ?? 3
  case "--merge": merge = true
  case "-h", "--help":
    print("usage: storerecon-bench FILE… [--threads N] [--repeat N] [--merge]")
    print("Reads each store export with its importer (bytes to packed records, nothing else) and prints")
    print("MB/s: the best of --repeat runs (default 3), on --threads threads (default 1). With --merge the")
    print("records also go into a ledger builder (chains found), as in a run.")
    exit(0)
  default: files.append(argument)
  }
}
guard !files.isEmpty else {
  print("usage: storerecon-bench FILE… [--threads N] [--repeat N] [--merge]")
  exit(64)
}

func seconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_MONOTONIC, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

func cpuSeconds() -> Double {
  var t = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
  return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

var perFormat: [String: (bytes: Double, seconds: Double)] = [:]
for file in files {
  guard let format = ImportBenchmark.Format.guess(file) else {
    print("\(file): unknown format (name it *.jsonl, *subscriptions*.jsonl, *voided*.jsonl or *.csv)")
    continue
  }
  var info = stat()
  guard stat(file, &info) == 0 else {
    print("\(file): cannot stat")
    continue
  }
  let bytes = Double(info.st_size)
  var best = Double.infinity
  var bestCPU = Double.infinity
  var rows = 0
  for _ in 0..<max(1, repeats) {
    let start = seconds()
    let cpu = cpuSeconds()
    do {
      rows = try ImportBenchmark.read(file, format: format, threads: threads, merge: merge).read
    } catch {
      print("\(file): \(error)")
      break
    }
    best = min(best, seconds() - start)
    bestCPU = min(bestCPU, cpuSeconds() - cpu)
  }
  guard best.isFinite else { continue }
  let mb = bytes / 1e6
  print(
    "\(format.rawValue)\t\(file)\t\(Int(mb)) MB\t\(rows) rows\t\(String(format: "%.2f", best)) s\t"
      + "\(Int(mb / best)) MB/s wall\t\(Int(mb / bestCPU)) MB/s per CPU-second")
  perFormat[format.rawValue, default: (0, 0)].bytes += bytes
  perFormat[format.rawValue, default: (0, 0)].seconds += best
}
for (format, total) in perFormat.sorted(by: { $0.key < $1.key }) {
  print(
    "\(format)\ttotal\t\(Int(total.bytes / 1e6 / total.seconds)) MB/s on \(threads) thread(s)"
      + (merge ? ", merged into a ledger builder" : ", importer alone"))
}
