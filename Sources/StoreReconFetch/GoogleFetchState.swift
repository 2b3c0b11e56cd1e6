/// The Google source's section of `state.json`: where the voided-purchases list continues, which report
/// objects were fetched at which generation and checksum, and the purchase tokens Google did not know.
/// The subscriptions need no cursor: `play/subscriptions.jsonl` itself says what is known and in which
/// state.
struct GoogleFetchState: Codable, Equatable {
  /// The `startTime` (milliseconds since 1970) of the next voided-purchases list.
  var voidedStartMillis: Int64?
  /// Report objects fetched: name in the bucket (`sales/salesreport_202611.zip`) → what was fetched.
  var objects: [String: FetchedObject] = [:]
  /// Sales-report order ids (first orders) looked up with the Orders API → their purchase token (empty
  /// when Google did not know the order).
  var orderTokens: [String: String] = [:]
  /// Purchase tokens the Play Developer API answered 404 for → the day (`YYYY-MM-DD`) that was last seen.
  var unknownTokens: [String: String] = [:]

  /// An empty state.
  init() {}

  /// Reads a saved state; a section a fetch of an older version did not write is empty.
  init(from decoder: any Decoder) throws {
    let values = try decoder.container(keyedBy: CodingKeys.self)
    voidedStartMillis = try values.decodeIfPresent(Int64.self, forKey: .voidedStartMillis)
    objects = try values.decodeIfPresent([String: FetchedObject].self, forKey: .objects) ?? [:]
    orderTokens = try values.decodeIfPresent([String: String].self, forKey: .orderTokens) ?? [:]
    unknownTokens = try values.decodeIfPresent([String: String].self, forKey: .unknownTokens) ?? [:]
  }

  /// One report object as fetched.
  struct FetchedObject: Codable, Equatable {
    /// Cloud Storage's `generation` (a new one each time the object is rewritten).
    var generation: String
    /// Cloud Storage's `md5Hash` (base64 of the MD5 of the bytes).
    var md5Hash: String
    /// Where it was written, relative to `fetch.into`.
    var path: String
  }
}
