// Safety: the certificates given outlive the call, so the stack that borrows their pointers is safe; every
// libcrypto object made here is freed once by `defer`; at least one root and a two-certificate chain are
// preconditions.

internal import CCrypto

/// Chain verification by libcrypto (`X509_verify_cert`): a leaf through the given intermediates to one
/// of the given roots, the roots being the only trust anchors (no system store).
package enum X509ChainCheck {
  /// Why `chain` (leaf first, root last) is not a chain to one of `roots`, or `nil` when it is.
  ///
  /// The chain libcrypto builds from the leaf, the certificates between (untrusted) and the trusted
  /// `roots` must be exactly `chain`, its last certificate being one of `roots`: every signature, every
  /// CA's basic constraints and key usage are checked; validity dates are not
  /// (`X509_V_FLAG_NO_CHECK_TIME`): the caller compares them with the instant that matters to it.
  package static func failure(chain given: [X509Certificate], roots: [X509Certificate]) -> String? {
    precondition(!roots.isEmpty, "X509ChainCheck: no trusted root")
    precondition(given.count >= 2, "X509ChainCheck: a chain is a leaf and a root at least")
    let leaf = given[0]
    let intermediates = given[1..<(given.count - 1)]
    guard let store = X509_STORE_new() else { return "out of memory" }
    defer { X509_STORE_free(store) }
    for root in roots where X509_STORE_add_cert(store, root.pointer) != 1 {
      ERR_clear_error()  // a root given twice: already there
    }
    guard let untrusted = OPENSSL_sk_new_null() else { return "out of memory" }
    defer { OPENSSL_sk_free(untrusted) }
    for certificate in intermediates {
      // The stack borrows the pointers; the certificates outlive it.
      guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.pointer)) > 0 else {
        return "out of memory"
      }
    }
    guard let context = X509_STORE_CTX_new() else { return "out of memory" }
    defer { X509_STORE_CTX_free(context) }
    guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
      ERR_clear_error()
      return "out of memory"
    }
    X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_NO_CHECK_TIME))
    guard X509_verify_cert(context) == 1 else {
      let code = X509_STORE_CTX_get_error(context)
      ERR_clear_error()
      return String(cString: X509_verify_cert_error_string(Int(code)))
    }
    guard let chain = X509_STORE_CTX_get0_chain(context) else { return "no chain" }
    guard Int(OPENSSL_sk_num(chain)) == given.count else {
      return "the chain has \(OPENSSL_sk_num(chain)) certificates, expected \(given.count)"
    }
    for (index, certificate) in given.enumerated() {
      guard let built = OPENSSL_sk_value(chain, Int32(index)),
        X509_cmp(OpaquePointer(built), certificate.pointer) == 0
      else {
        return index == given.count - 1
          ? "the chain's root is not a trusted root"
          : "certificate \(index) of the chain is not the one given"
      }
    }
    return nil
  }
}
