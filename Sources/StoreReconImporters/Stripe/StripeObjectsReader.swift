import StoreReconCore
package import StoreReconIO
package import StoreReconPlatform

/// Reads every `stripe.objects` file of a run together (an object's latest state may be in another
/// file than its first, and a refund names a charge read elsewhere), keeps each object's latest state,
/// then turns the objects into normalised records: docs/inputs.md#stripe-objects.
package struct StripeObjectsReader: Sendable {
  /// One input file.
  package struct Input: Sendable {
    package var index: Int32
    package var path: String
    package var display: String
    /// A `stripe.events` file: every line an event, read as Stripe's notification history only (its
    /// `data.object` is the object as it was then, not a state to keep).
    package var eventsOnly = false
    /// The file's snapshot (docs/snapshot.md#stripe): when it holds the file's bytes, the file is not
    /// parsed.
    package var snapshot: StripeSnapshot?

    /// Creates the value.
    package init(
      index: Int32, path: String, display: String, eventsOnly: Bool = false, snapshot: StripeSnapshot? = nil
    ) {
      (self.index, self.path, self.display, self.eventsOnly) = (index, path, display, eventsOnly)
      self.snapshot = snapshot
    }
  }

  /// The metadata key naming the app's user on a subscription or customer (`stripe.userMetadataKey`).
  package var userMetadataKey = "app_user_id"

  /// The run's time window (from T) every timestamp must fall in.
  package var window = StoreTimeWindow.standalone

  /// Creates a reader.
  package init(userMetadataKey: String = "app_user_id", window: StoreTimeWindow = .standalone) {
    (self.userMetadataKey, self.window) = (userMetadataKey, window)
  }

  /// Reads `inputs` in order; a later line wins over an earlier one of the same instant. `meter` gives
  /// each file's read its progress meter (``ReadProgress``), if any.
  package func read(_ inputs: [Input], meter: (Input) -> ReadProgress? = { _ in nil }) -> StripeImport {
    guard let whole = StripeReadSnapshot(inputs) else { return readAll(inputs, hashed: [:], meter: meter) }
    // Every file is hashed first (its stamp taken before, so that a change while it is parsed shows):
    // when the list of files is the one the whole read's snapshot was made from, nothing is parsed.
    var hashed: [Int32: Hashed] = [:]
    for input in inputs {
      let stamp = FileStamp.of(input.path)
      hashed[input.index] = Hashed(
        stamp: stamp, digest: stamp == nil ? nil : FileDigest.bytes(path: input.path))
    }
    let key = StripeReadSnapshot.key(inputs, hashed.compactMapValues(\.digest))
    if let key, var result = whole.load(key, inputs: inputs) {
      for input in inputs {
        result.files[input.index, default: StripeImport.File()].digest = hashed[input.index]?.digest.map {
          ($0.bytes, ParseSnapshot.hex($0.sha256))
        }
        input.snapshot?.takenWhole()
      }
      result.wholeSnapshot = (whole.path, whole.outcome)
      return result
    }
    var result = readAll(inputs, hashed: hashed, meter: meter)
    let kept = inputs.allSatisfy { input in
      guard let outcome = input.snapshot?.outcome else { return false }
      if case .notKept = outcome { return false }
      return outcome != .unread
    }
    if let key, kept, result.files.values.allSatisfy({ $0.error == nil }) {
      whole.save(result, key, inputs: inputs)
    }
    result.wholeSnapshot = (whole.path, whole.outcome)
    return result
  }

  /// A file's stamp taken before it was hashed, and its size and SHA-256.
  struct Hashed {
    var stamp: FileStamp?
    var digest: (bytes: Int64, sha256: [UInt8])?
  }

  /// Reads (or replays) every file of `inputs` and builds the chains; `hashed`: the files already hashed.
  func readAll(_ inputs: [Input], hashed: [Int32: Hashed], meter: (Input) -> ReadProgress?) -> StripeImport {
    var result = StripeImport()
    var kept: [StripeObject.Kind: [String: StripeObject]] = [:]
    var names: [Int32: String] = [:]
    var events: [String: StoreNotification] = [:]
    for input in inputs {
      names[input.index] = input.display
      guard
        let file = ReadProgress.during(
          meter(input),
          { readFile(input, hashed: hashed[input.index], kept: &kept, events: &events, result: &result) })
      else {
        // A stored snapshot that does not decode (its check held): every file is read again from its
        // bytes, none from a snapshot, so that nothing half-replayed stays.
        for other in inputs {
          other.snapshot?.refuse("a snapshot of the Stripe files does not decode: rebuilt")
        }
        return readAll(inputs, hashed: hashed, meter: meter)
      }
      result.files[input.index] = file
    }
    var chains = StripeChains(objects: kept, userMetadataKey: userMetadataKey)
    chains.build()
    result.aliases = chains.aliases
    for d in chains.openDisputes {
      let paid = [d.charge, d.intent].compactMap { $0 }.first { chains.aliases[$0] != nil }
      let key = result.chainKey(paid ?? d.charge ?? d.intent ?? d.id)
      let dispute = StripeOpenDispute(
        id: d.id, status: d.status, money: Money(minor: d.amount, currency: d.currency), at: d.at)
      result.openDisputes[key, default: []].append(dispute)
    }
    for key in result.openDisputes.keys { result.openDisputes[key]?.sort { $0.id < $1.id } }
    result.events = IdOrder.sorted(Array(events.keys)).compactMap { id in
      guard var n = events[id] else { return nil }
      n.chainKey = n.chainKey.map { result.chainKey($0) }
      return n
    }
    for (origin, reason) in chains.rejected {
      result.reject(origin, display: names[origin.file] ?? "", reason: reason)
    }
    for record in chains.records { result.add(record) }
    result.feed = chains.feed
    for index in result.files.keys {
      result.files[index]?.rejects.sort { $0.line < $1.line }
    }
    return result
  }

  /// Reads one file's lines into `kept`, or replays them from its snapshot; returns the file's share so
  /// far, or `nil` when its snapshot did not decode.
  ///
  /// A line is read in place (``StripeTape``) and only the fields the chains use are kept
  /// (``StripePart``); a line the tape declines is parsed into a tree and read by the same functions.
  func readFile(
    _ input: Input, hashed: Hashed? = nil, kept: inout [StripeObject.Kind: [String: StripeObject]],
    events: inout [String: StoreNotification], result: inout StripeImport
  ) -> StripeImport.File? {
    var file = StripeImport.File()
    // Each object is kept (or counted as a repeat) as soon as it is read: `kept` holds one state per id.
    var objectLines = 0
    var repeats = StripeImport.File()
    var historyLines: [StoreNotification] = []
    func apply(_ effect: StripeLineEffect) {
      if effect.mentionsWindow { result.mentionsWindow = true }
      switch effect {
      case .history(let event): historyLines.append(event)
      case .line(let event, let line):
        if let event { events[event.notificationId] = event }
        switch line {
        case .object(let object):
          objectLines += 1
          keep(object, in: &kept, file: &repeats, result: &result)
        case .unknown(let type): result.unknownTypes[RawText.truncated(type), default: 0] += 1
        }
      }
    }
    let snapshot = input.snapshot
    let before = snapshot == nil ? nil : hashed.map(\.stamp) ?? FileStamp.of(input.path)
    var digest: (bytes: Int64, sha256: [UInt8])?
    if before != nil { digest = hashed.map(\.digest) ?? FileDigest.bytes(path: input.path) }
    file.digest = digest.map { ($0.bytes, ParseSnapshot.hex($0.sha256)) }
    if let snapshot, let digest, var stored = snapshot.begin(size: digest.bytes, sha: digest.sha256) {
      guard
        let replayed = StripeSnapshot.replay(&stored, index: input.index, display: input.display, apply)
      else { return nil }
      (file.counts, file.rejects) = replayed
    } else {
      let rejects = RejectList()
      parseFile(input, rejects: rejects, file: &file) { effect in
        snapshot?.record(effect)
        apply(effect)
      }
      if file.error != nil {
        let accepted = objectLines + historyLines.count
        file.counts = InputCounts(
          read: accepted + rejects.rejects.count, accepted: accepted, rejected: rejects.rejects.count)
        snapshot?.drop("the file could not be read to its end")
      } else if let before, FileStamp.of(input.path) != before {
        snapshot?.drop("the file changed while it was read")
      } else if let snapshot {
        if snapshot.outcome == .unread || digest == nil {
          snapshot.drop("the file could not be hashed")
        } else {
          snapshot.finish(counts: file.counts, rejects: rejects.rejects)
        }
      }
      file.rejects = rejects.rejects
    }
    // An event read twice is one notification, its last line kept; the repeat counts as a duplicate.
    for event in historyLines {
      if events[event.notificationId] != nil {
        file.counts.accepted -= 1
        file.duplicates += 1
      }
      events[event.notificationId] = event
    }
    file.counts.accepted += repeats.counts.accepted
    file.duplicates += repeats.duplicates
    file.superseded += repeats.superseded
    return file
  }

  /// Parses the lines of `input`, giving each line's effect to `apply` in line order; its counts (or
  /// why it could not be read to its end) into `file`, its rejected lines into `rejects`.
  func parseFile(
    _ input: Input, rejects: RejectList, file: inout StripeImport.File, _ apply: (StripeLineEffect) -> Void
  ) {
    let tape = StripeTape()
    let metadataKeys = [userMetadataKey, "product_id"]
    func take<V: StripeJSON>(_ value: V, _ origin: Origin) throws(RowRejection) {
      // An event is also a notification Stripe sent (its data.object may be of any type).
      if input.eventsOnly {
        apply(.history(try StripeEvent.notification(of: value, origin: origin, window: window)))
        return
      }
      var event: StoreNotification?
      if value.isObject, value["object"]?.text == "event" {
        event = try StripeEvent.notification(of: value, origin: origin, window: window)
      }
      let line = try StripeObject.line(value, origin: origin, metadataKeys: metadataKeys, window: window)
      apply(.line(event: event, line))
    }
    do throws(InputError) {
      file.counts = try JSONLinesImport.byteLines(
        path: input.path, displayName: input.display, fileIndex: input.index, rejects: rejects
      ) { (bytes, origin) throws(RowRejection) in
        let read: Void? = try tape.scan(bytes) { (span) throws(RowRejection) in try take(span, origin) }
        if read == nil { try take(try JSONLinesImport.parse(bytes), origin) }
      }
    } catch {
      file.error = error.description
    }
  }

  /// Keeps `object` as its id's latest state, or counts it as a duplicate or an older state.
  func keep(
    _ object: StripeObject, in kept: inout [StripeObject.Kind: [String: StripeObject]],
    file: inout StripeImport.File, result: inout StripeImport
  ) {
    guard let old = kept[object.kind]?[object.id] else {
      kept[object.kind, default: [:]][object.id] = object
      return
    }
    file.counts.accepted -= 1
    if old.fingerprint == object.fingerprint {
      file.duplicates += 1
      return
    }
    // The new line is later in the run's order: it wins unless it states an older instant.
    if object.version >= old.version {
      kept[object.kind]?[object.id] = object
      file.counts.accepted += 1
      if old.origin.file == object.origin.file {
        file.counts.accepted -= 1
        file.superseded += 1
      } else {
        result.files[old.origin.file]?.counts.accepted -= 1
        result.files[old.origin.file]?.superseded += 1
      }
    } else {
      file.superseded += 1
    }
  }
}
