import Testing

/// Contracts as code: the invariants of the hash tables, the packed layouts and the documented
/// preconditions, each checked by a test that can fail (`swift test --filter Contracts`). Every suite
/// in Tests/StoreReconTests/Contracts/ is nested here.
@Suite enum Contracts {}
