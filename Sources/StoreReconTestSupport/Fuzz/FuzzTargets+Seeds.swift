// The generated part of each target's starting corpus (scripts/fuzz adds the samples and fixtures).
extension FuzzTargets {
  /// Seed inputs for target `name`: ``LineVariants`` lines, reports and values.
  package static func seeds(_ name: String) -> [[UInt8]] {
    switch name {
    case "appstore", "json":
      let variants = LineVariants.appStore(seed: 1, count: 300).map(\.bytes)
      return variants + stride(from: 0, to: 60, by: 3).map { variants[$0] + [0x0A] + variants[$0 + 1] }
    case "subscriptions": return LineVariants.playSubscription(seed: 1, count: 300).map(\.bytes)
    case "voided": return LineVariants.playVoided(seed: 1, count: 100).map(\.bytes)
    case "sales": return (0..<60).map { LineVariants.playSalesReport(seed: UInt64($0), rows: 6).file }
    case "values":
      let texts = [
        "2026-03-17T04:18:07Z", "2026-03-17T04:18:07.123456789+05:30", "2026-11-24", "4.99", "-1234.5678",
        "1764000000", "1e3", "0.0000001", "P1M", "12.5%",
      ]
      return texts.map { Array($0.utf8) }
    case "notifications": return notificationSeeds
    case "money": return moneySeeds
    default: return []
    }
  }
}
