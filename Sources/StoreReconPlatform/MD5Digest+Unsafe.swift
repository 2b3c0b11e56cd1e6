// Safety: libcrypto reads `input.count` bytes of the caller's array and writes at most 16 into a 16-byte
// array, both valid inside the closures; the length it reports is checked (precondition, debug and release).

internal import CCrypto

/// MD5 through libcrypto, for checking a download against the checksum a server publishes (Cloud
/// Storage's `md5Hash`). Not for anything that needs a secure hash: use ``SHA256Digest``.
package enum MD5Digest {
  /// The 16-byte MD5 of `bytes`.
  package static func bytes(of bytes: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    var length: UInt32 = 0
    let ok = bytes.withUnsafeBytes { input in
      out.withUnsafeMutableBufferPointer { output in
        EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_md5(), nil) == 1
      }
    }
    precondition(ok && length == 16, "MD5Digest: libcrypto's MD5 gives 16 bytes")
    return out
  }
}
