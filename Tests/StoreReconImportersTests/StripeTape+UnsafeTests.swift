import Testing
import StoreReconTestSupport

@testable import StoreReconCore
@testable import StoreReconIO
@testable import StoreReconImporters

/// The Stripe reader's lean path (``StripeTape``): what it reads of a line is what the tree path reads,
/// in either API shape and any member order; the fingerprint tells an identical repeat from a new state.
@Suite struct StripeTapeTests {
  /// What the lean path makes of `line` (`nil`: it declined), and what the tree path makes of it.
  static func both(_ line: String) throws -> (lean: String?, tree: String) {
    let bytes = Array(line.utf8)
    let origin = Origin(file: 0, line: 1)
    let keys = ["app_user_id", "product_id"]
    func describe(_ read: Result<StripeObject.Line, RowRejection>) -> String {
      switch read {
      case .success(.object(let o)):
        return "\(o.kind) \(o.id) \(o.version) \(o.fingerprint) \(o.part)"
      case .success(.unknown(let type)): return "unknown \(type)"
      case .failure(let error): return "rejected: \(error.reason)"
      }
    }
    let lean = bytes.withUnsafeBufferPointer { buffer in
      try? StripeTape().scan(buffer) { (span) throws(RowRejection) in
        describe(
          Result { () throws(RowRejection) in
            try StripeObject.line(span, origin: origin, metadataKeys: keys, window: .standalone)
          })
      }
    }
    let tree = try JSONParser.parse(line)
    return (
      lean ?? nil,
      describe(
        Result { () throws(RowRejection) in
          try StripeObject.line(tree, origin: origin, metadataKeys: keys, window: .standalone)
        })
    )
  }

  static let basilInvoice =
    #"{"object":"invoice","id":"in_1QxyzLongInvoiceId0000000000000000000000000000000000000000000001","status":"paid","amount_paid":999,"currency":"usd","created":1795000000,"status_transitions":{"finalized_at":1795000000,"paid_at":1795000100},"parent":{"subscription_details":{"subscription":"sub_1QabcDEF0123456789xyzUVW"}},"payments":{"data":[{"payment":{"type":"payment_intent","payment_intent":"pi_9"}},{"payment":{"charge":{"id":"ch_9","object":"charge"}}}]},"total_taxes":[{"amount":50},{"amount":"25"}],"livemode":false,"customer":{"id":"cus_1","object":"customer"},"lines":{"data":[{"period":{"start":1795000000,"end":1797592000},"pricing":{"price_details":{"price":"price_1X"}},"quantity":2},{"period":{"start":1790000000,"end":1792592000},"price":{"id":"price_old","type":"recurring","lookup_key":"old"}}]}}"#

  static let acaciaSubscription =
    #"{"object":"subscription","id":"sub_1QabcDEF0123456789xyzUVW","status":"past_due","customer":"cus_1","created":1795000000,"start_date":1794000000,"trial_start":null,"trial_end":null,"canceled_at":null,"ended_at":null,"current_period_start":1795000000,"current_period_end":1797592000,"metadata":{"app_user_id":"user-Zoë-42","product_id":""},"items":{"object":"list","data":[{"price":{"id":"price_1X","lookup_key":"pro_monthly"},"quantity":1}]},"livemode":true}"#

  @Test func theLeanPathReadsWhatTheTreeReadsInAnyMemberOrder() throws {
    let charge =
      #"{"object":"charge","id":"ch_9","amount":999,"amount_captured":"999","currency":"jpy","status":"succeeded","paid":"true","created":1795000000,"payment_intent":"pi_9","invoice":null,"customer":"cus_1","livemode":true,"metadata":{"product_id":"coins_100","app_user_id":"u1"}}"#
    let refund =
      #"{"object":"refund","id":"re_1","charge":"ch_9","amount":500,"currency":"usd","status":"succeeded","created":1795100000}"#
    let event =
      #"{"id":"evt_1","object":"event","type":"invoice.paid","created":1795000200,"livemode":false,"data":{"object":\#(Self.basilInvoice)}}"#
    let price =
      #"{"object":"price","id":"price_1X","lookup_key":"pro_monthly","recurring":{"interval":"month"}}"#
    let customer = #"{"object":"customer","id":"cus_1","metadata":{"app_user_id":"u1"},"email":"a@b.c"}"#
    let payment =
      #"{"object":"invoice_payment","id":"inpay_1","invoice":"in_1","payment":{"type":"charge","charge":"ch_9"}}"#
    for line in [Self.basilInvoice, Self.acaciaSubscription, charge, refund, event, price, customer, payment]
    {
      for order in 0..<3 {
        let variant = order == 0 ? line : Self.reordered(line, reversed: order == 2)
        let (lean, tree) = try Self.both(variant)
        #expect(lean == tree, "\(variant)")
        #expect(lean != nil, "the lean path declined \(variant)")
        #expect(!tree.hasPrefix("rejected"), "\(tree)")
        // The fingerprint does not depend on the member order.
        #expect(tree.split(separator: " ")[3] == (try Self.both(line)).tree.split(separator: " ")[3])
      }
    }
  }

  /// `line` (a JSON object) with its top-level members sorted by name, or in reverse order.
  static func reordered(_ line: String, reversed: Bool) -> String {
    guard case .object(let members)? = try? JSONParser.parse(line) else { return line }
    var names = members.keys.sorted()
    if reversed { names.reverse() }
    return "{" + names.map { "\"\($0)\":" + render(members[$0] ?? .null) }.joined(separator: ",") + "}"
  }

  static func render(_ value: JSONValue) -> String {
    switch value {
    case .string(let s): return "\"" + s + "\""
    case .number(let n): return n
    case .bool(let b): return b ? "true" : "false"
    case .null: return "null"
    case .array(let a): return "[" + a.map(render).joined(separator: ",") + "]"
    case .object(let m):
      return "{" + m.keys.sorted().map { "\"\($0)\":" + render(m[$0] ?? .null) }.joined(separator: ",") + "}"
    }
  }

  @Test func badFieldsAreRejectedWithTheTreesReasonsOnEitherPath() throws {
    let lines = [
      #"{"object":"charge","id":"ch_1","amount":-5,"currency":"usd","created":1795000000}"#,
      #"{"object":"charge","id":"ch_1","amount":5,"currency":"usd","created":"soon"}"#,
      #"{"object":"invoice","id":"in_1","status":"paid","amount_paid":150,"currency":"isk","created":1795000000}"#,
      #"{"object":"invoice","id":"in_1","status_transitions":[],"created":1795000000}"#,
      #"{"object":"subscription","id":["sub_1"]}"#,
      #"{"object":"event","id":"evt_1","created":1795000000,"data":{"object":{"id":"sub_1"}}}"#,
      #"{"object":"refund","id":"re_1","amount":1.5,"currency":"usd","created":1795000000,"livemode":"yes"}"#,
      #"{"object":"dispute","id":"dp_1","amount":100,"currency":"usd","created":99999999999999}"#,
      #"[1,2]"#, #""text""#, #"{"object":"payout","id":"po_1"}"#,
    ]
    for line in lines {
      let (lean, tree) = try Self.both(line)
      #expect(lean == tree, "\(line)")
      #expect(lean != nil)
    }
  }

  @Test func theTapeDeclinesWhatOnlyTheParserCanWord() throws {
    let many = (0..<80).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
    let taken = [
      #"{"object":"customer","id":"cus_1",\#(many)}"#,  // more members than the flat scanners keep
      #"{"object":"customer","id":"cus_1","name":"Zoë 🐟"}"#,  // bytes outside ASCII in a value
    ]
    let declined = [
      #"{"object":"customer","id":"cus_1","id":"cus_2"}"#,  // a member name twice
      #"{"object":"customer","id":"cus_\/1"}"#,  // an escape
      #"{"object":"customer","id":"cus_1","naïve":1}"#,  // a member name outside ASCII
      #"{"object":"customer","id":"cus_1",}"#,  // not JSON
      String(repeating: "[", count: 300) + String(repeating: "]", count: 300),
    ]
    for line in taken {
      let bytes = Array(line.utf8)
      #expect(bytes.withUnsafeBufferPointer { b in (try? StripeTape().scan(b) { _ in true }) ?? nil } == true)
    }
    for line in declined {
      let bytes = Array(line.utf8)
      #expect(bytes.withUnsafeBufferPointer { b in (try? StripeTape().scan(b) { _ in true }) ?? nil } == nil)
    }
  }

  @Test func anEscapedRepeatIsADuplicateAndAChangedValueANewState() throws {
    let plain = #"{"object":"customer","id":"cus_1","url":"a/b","metadata":{"app_user_id":"u1"}}"#
    let escaped = #"{"metadata":{"app_user_id":"u\u0031"},"url":"a\/b","id":"cus_1","object":"customer"}"#
    let changed = #"{"object":"customer","id":"cus_1","url":"a/b","metadata":{"app_user_id":"u2"}}"#
    let fingerprint = { (line: String) in try Self.both(line).tree.split(separator: " ")[3] }
    #expect(try fingerprint(plain) == fingerprint(escaped))
    #expect(try fingerprint(plain) != fingerprint(changed))
    #expect(try Self.both(escaped).lean == nil)
  }
}
