#if canImport(Glibc)
  import Glibc
#endif

enum MemDebug {
  static let on = getenv("STORERECON_MEMREPORT") != nil
  static func rss() -> String {
    guard let f = fopen("/proc/self/status", "r") else { return "?" }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    var out = ""
    while fgets(&line, 256, f) != nil {
      let s = String(cString: line)
      if s.hasPrefix("VmRSS") || s.hasPrefix("VmHWM") { out += s.replacingOccurrences(of: "\n", with: " ") }
    }
    return out
  }
  static func note(_ what: String) {
    guard on else { return }
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    let ms = Int(t.tv_sec) * 1000 + Int(t.tv_nsec) / 1_000_000
    StandardError.write("MEM \(ms % 1_000_000) \(what): \(rss())\n")
    guard getenv("STORERECON_MEMMAPS") != nil, let f = fopen("/proc/self/smaps", "r") else { return }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 512)
    var current = ""
    var maps: [(String, Int, Int)] = []
    var size = 0
    while fgets(&line, 512, f) != nil {
      let s = String(cString: line)
      if let first = s.first, first.isHexDigit, s.contains("-") && !s.hasPrefix("Size") {
        current = String(s.dropLast())
      } else if s.hasPrefix("Size:") {
        size = Int(s.split(separator: " ").dropFirst().first ?? "0") ?? 0
      } else if s.hasPrefix("Rss:") {
        let rss = Int(s.split(separator: " ").dropFirst().first ?? "0") ?? 0
        maps.append((current, size, rss))
      }
    }
    maps.sort { $0.2 > $1.2 }
    for m in maps.prefix(25) {
      StandardError.write("   \(m.2 / 1024) MB of \(m.1 / 1024) MB  \(m.0.suffix(40))\n")
    }
  }
  static func strides() {
    guard on else { return }
    StandardError.write(
      "MEM strides ent \(MemoryLayout<EntitlementTable.Row>.stride) cred \(MemoryLayout<CredentialTable.Row>.stride) assign \(MemoryLayout<Assignment>.stride) lineage \(MemoryLayout<LineageRows.Item>.stride) status \(MemoryLayout<StatusRecord>.stride) rare \(MemoryLayout<RareFields>.stride)\n"
    )
  }
  static func ledger(_ s: LedgerStorage) {
    strides()
    guard on else { return }
    let mb = { (n: Int) in String(n / 1_000_000) + "MB" }
    StandardError.write(
      "MEM ledger records \(s.records.count)x\(MemoryLayout<PackedRecord>.stride)=\(mb(s.records.count * MemoryLayout<PackedRecord>.stride)) order \(mb(s.order.count * 4)) chains \(s.chains.count)x\(MemoryLayout<ChainState>.stride)=\(mb(s.chains.count * MemoryLayout<ChainState>.stride)) statuses \(s.statuses.count)x\(MemoryLayout<StatusRecord>.stride)=\(mb(s.statuses.count * MemoryLayout<StatusRecord>.stride)) rare \(s.rare.count) pool \(s.pool.count)/\(mb(s.pool.byteCount))\n"
    )
  }
}
