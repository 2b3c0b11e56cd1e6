// Safety: base64 reads the test's own byte arrays through buffers borrowed for the call; the checksum
// buffer is allocated and freed by its test, 4,096 bytes, which FileDigest fills within its count; the
// mapped bytes are read only at offsets inside the mapping, after `load`.

import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconPlatform
@testable import StoreReconCore
@testable import StoreReconIO

/// The read-ahead's parts: the JWS fast path, base64 into a buffer, the checksums of mapped files and the
/// mapped pages (the schedule over a whole demo world is checked in StoreReconCLITests).
@Suite struct ReadScheduleTests {
  @Test func jwsLinesPackAsTheFullPathReadsThem() throws {
    func jws(_ payload: String, padded: Bool = false, standard: Bool = false) -> String {
      var text = Data(payload.utf8).base64EncodedString()
      if !standard {
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      }
      if !padded { text = text.replacingOccurrences(of: "=", with: "") }
      return "eyJhbGciOiJFUzI1NiJ9." + text + ".c2ln"
    }
    let plain =
      #"{"originalTransactionId":"1","transactionId":"2","productId":"p.m","purchaseDate":1764000000000,"price":4990,"currency":"USD","type":"Auto-Renewable Subscription","expiresDate":1766600000000}"#
    let lines = [
      jws(plain), jws(plain, padded: true), jws(plain, standard: true), jws(plain + "  "), jws(" " + plain),
      jws(plain.replacingOccurrences(of: #""price":4990"#, with: #""price":4995"#)),
      jws(#"{"signedTransactionInfo":""# + jws(plain) + #""}"#),
      jws(#"{"notificationType":"TEST","data":{}}"#), jws("not json"), jws("[1,2]"), jws(""),
      "eyJhbGciOiJFUzI1NiJ9.e30.c2ln.more", "eyJhbGciOiJFUzI1NiJ9..c2ln", ".abc.def", "abc.d*f.ghi",
      "abc.d.ghi",
      jws(plain.replacingOccurrences(of: "p.m", with: "p\\u002em")),
      jws(plain.replacingOccurrences(of: "\"1\"", with: "\"ü\"")),
    ]
    let dir = try TempDir()
    let path = try dir.write("jws.jsonl", lines.joined(separator: "\n") + "\n")
    let expected = try ImportComparison.sequential([("apple", path)])
    #expect(expected.counts.first?.accepted ?? 0 >= 6)
    #expect(expected.counts.first?.rejected ?? 0 >= 5)
    for (chunkBytes, threads) in [(64, 2), (1 << 20, 1)] {
      #expect(
        try ImportComparison.packed([("apple", path)], chunkBytes: chunkBytes, threads: threads)
          == expected)
    }
  }

  @Test func base64IntoABufferDecodesAsTheArrayDecoder() {
    let buffer = GrowableBuffer<UInt8>()
    let seed: UInt64 = 0xB64_0001
    var generator = SeededGenerator(seed: seed, stream: "base64")
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=*.".utf8)
    for length in 0..<40 {
      for _ in 0..<30 {
        let text = (0..<length).map { _ in alphabet[generator.below(alphabet.count)] }
        let bytes = text.filter { $0 != 0x2A || length % 7 == 0 }
        let expected = bytes.withUnsafeBufferPointer { Base64URL.decode($0) }
        let got = bytes.withUnsafeBufferPointer { Base64URL.decode($0, into: buffer).map { Array($0) } }
        #expect(got == expected, "seed \(seed): \(String(decoding: bytes, as: UTF8.self))")
      }
    }
  }

  @Test func checksumsOfMappedFilesAreTheFilesChecksums() throws {
    let dir = try TempDir()
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
    defer { buffer.deallocate() }
    for size in [0, 1, 4095, 4096, 4097, 9 << 20] {
      let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
      let path = try dir.write("f\(size).bin", bytes: bytes)
      let mapped = try #require(FileDigest.of(path: path, buffer: buffer))
      let read = try #require(FileDigest.of(path: path))
      #expect(mapped.bytes == Int64(size) && mapped == read)
    }
    #expect(FileDigest.of(path: dir.path("none"), buffer: buffer) == nil)
  }

  @Test func mappedPagesLoadAndReleaseWithinTheFile() throws {
    let dir = try TempDir()
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0) }
    let path = try dir.write("m.bin", bytes: bytes)
    let file = try FileByteSource(path: path, displayName: "m.bin")
    file.mapWhole()
    let map = try #require(file.mapping)
    #expect(map.size == 10_000)
    #expect(map.load(0, 10_000) && map.load(9_000, 5_000) && map.load(20_000, 10))
    #expect(map.base[9_999] == UInt8(truncatingIfNeeded: 9_999))
    map.release(100, 9_000)
    #expect(map.base[5_000] == UInt8(truncatingIfNeeded: 5_000))  // released pages read again from the file
    let empty = try FileByteSource(path: try dir.write("e.bin", bytes: []), displayName: "e.bin")
    empty.mapWhole()
    #expect(empty.mapping == nil)
  }
}
