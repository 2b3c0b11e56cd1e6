// The app-row CSV readers (docs/contracts.md), the first byte choosing the contract: each reader on the
// bytes as a stream (as a query's COPY output), and the chunked packers of entitlements and
// credentials on the same bytes as a file, which must accept and reject as many rows.
import Foundation
import StoreReconAppRows
import StoreReconCore
import StoreReconIO
import StoreReconTestSupport

enum AppRowsTarget {
  nonisolated(unsafe) static let folder = try? TempDir()

  static func run(_ data: UnsafeBufferPointer<UInt8>) {
    guard let choice = data.first else { return }
    let body = Array(data.dropFirst())
    switch choice % 6 {
    case 0:
      check(EntitlementCSVReader(), "entitlements.csv", body) { path, sink in
        var table = PackedEntitlements()
        return try? EntitlementCSVReader().read(
          path: path, displayName: "entitlements.csv", fileIndex: 0, rejects: sink, into: &table,
          chunkBytes: 67, threads: 1)
      }
    case 1:
      check(CredentialCSVReader(), "credentials.csv", body) { path, sink in
        var table = PackedCredentials()
        return try? CredentialCSVReader().read(
          path: path, displayName: "credentials.csv", fileIndex: 0, rejects: sink, into: &table,
          chunkBytes: 67, threads: 1)
      }
    case 2: check(CreditCSVReader(), "credits.csv", body)
    case 3: check(AssignmentCSVReader(), "assignments.csv", body)
    case 4: check(FXRateCSVReader(reporting: Fx.usd), "rates.csv", body)
    default: check(GoodwillCSVReader(), "goodwill.csv", body)
    }
  }

  /// `reader` on `body` as a stream; with `packed`, also the chunked packer against the line-by-line
  /// reader on `body` written as `name`: the same counts and the same rejects, or the process stops.
  static func check<R: AppRowReader>(
    _ reader: R, _ name: String, _ body: [UInt8], packed: ((String, RejectList) -> InputCounts?)? = nil
  ) {
    _ = try? reader.read(
      source: MemoryByteSource(body), displayName: name, fileIndex: 0, rejects: RejectList()
    ) {
      _ in
    }
    guard let packed, let path = try? folder?.write(name, bytes: body) else { return }
    let (packedRejects, fileRejects) = (RejectList(), RejectList())
    let a = packed(path, packedRejects)
    let b = try? reader.read(path: path, displayName: name, fileIndex: 0, rejects: fileRejects) { _ in }
    if a != b || packedRejects.rejects != fileRejects.rejects {
      fatalError(
        "\(name): packed \(String(describing: a)) \(packedRejects.rejects) line by line "
          + "\(String(describing: b)) \(fileRejects.rejects)")
    }
  }

  /// Seeds: a small valid file of each contract, behind its choice byte.
  static var seeds: [[UInt8]] {
    let files = [
      "entitlement_id,user_id,product_id,source,store_key,status,starts_at,expires_at,updated_at\n"
        + "e1,u1,pro,app_store,2000000000000100,active,2026-01-01T00:00:00Z,,2026-01-01T00:00:00Z\n",
      "store,store_key,user_id,linked_store_key,order_id,claimed_at\napp_store,2000000000000100,u1,,,2026-01-01T00:00:00Z\n",
    ]
    return files.enumerated().map { [UInt8($0.offset)] + Array($0.element.utf8) }
  }
}
