import Foundation
import Testing

@testable import StoreReconFetch
@testable import StoreReconSettings

/// The Stripe source's parts that need no server: the JSON byte scanner that keeps each object's text as
/// Stripe wrote it, the key's shape, Stripe's error line (never quoting a key) and the query encoding.
@Suite struct StripePartsTests {
  @Test func theListElementsAreFoundAndCompactedWithoutTouchingStrings() throws {
    let body = Array(
      """
      {
        "object": "list",
        "url": "/v1/customers",
        "note": "a \\"data\\": [ trap ]",
        "data": [
          {
            "id": "cus_1",
            "object": "customer",
            "name": "Zoë  { two spaces }",
            "rate": 0.912345678901,
            "list": [1, 2, {"x": null}]
          },
          {"id": "cus_2", "object": "customer", "escaped": "tab\\t and \\\\ slash"}
        ],
        "has_more": false
      }
      """.utf8)
    let ranges = try #require(StripeJSON.elements(of: "data", in: body))
    #expect(ranges.count == 2)
    let first = String(decoding: StripeJSON.compact(body[ranges[0]]), as: UTF8.self)
    #expect(
      first
        == #"{"id":"cus_1","object":"customer","name":"Zoë  { two spaces }","rate":0.912345678901,"list":[1,2,{"x":null}]}"#
    )
    let second = String(decoding: StripeJSON.compact(body[ranges[1]]), as: UTF8.self)
    #expect(second == #"{"id":"cus_2","object":"customer","escaped":"tab\t and \\ slash"}"#)
    #expect(StripeJSON.elements(of: "data", in: Array(#"{"data": [1, 2"#.utf8)) == nil)
    #expect(StripeJSON.elements(of: "data", in: Array(#"{"object": "list"}"#.utf8)) == nil)
    #expect(StripeJSON.elements(of: "data", in: Array(#"{"data": []}"#.utf8)) == [])
  }

  @Test func onlySecretAndRestrictedKeysPass() {
    for good in ["rk_live_51AbCdEfGhIjKlMnOpQr", "sk_test_4eC39HqLyjWDarjtT1zdp7dc"] {
      #expect(throws: Never.self) { try StripeKey.check(good, origin: "k") }
    }
    for bad in [
      "pk_live_51AbCdEfGhIjKlMnOpQr", "rk_live_short", "rk_prod_51AbCdEfGhIjKlMnOpQr",
      "sk_live_51AbCd-fGhIjKlMnOpQr",
      "rk_live_51AbCdEfGhIjKlMnOpQr\n", "",
    ] {
      do {
        try StripeKey.check(bad, origin: "the key file k")
        Issue.record("\(bad) passed")
      } catch {
        #expect(error.kind == .config)
        #expect(error.message.hasPrefix("the key file k "))
        #expect(bad.isEmpty || !error.message.contains(bad.dropFirst(8)))
      }
    }
  }

  @Test func stripesErrorIsOneLineWithoutTheKey() {
    let secret = "rk_live_51AbCdEfGhIjKlMnOpQrSt"
    let body = Array(
      """
      {"error": {"message": "The provided key 'rk_live_51A*****************QrSt' does not have the required permissions for this endpoint. Having the 'rak_subscription_read' permission would allow this request to continue.", "type": "invalid_request_error"}}
      """.utf8)
    let line = StripeAPI.errorDetail(body, hiding: secret)
    #expect(line.hasPrefix("invalid_request_error: The provided key [a key, not shown] does not have"))
    #expect(line.contains("rak_subscription_read"))
    #expect(!line.contains("QrSt"))
    let coded = Array(
      #"{"error": {"code": "resource_missing", "message": "No such customer: 'cus_1'", "type": "invalid_request_error"}}"#
        .utf8)
    #expect(
      StripeAPI.errorDetail(coded, hiding: secret)
        == "invalid_request_error, resource_missing: No such customer: 'cus_1'")
    #expect(StripeAPI.errorDetail(Array("<html>".utf8), hiding: secret) == "")
  }

  @Test func queriesAreEncodedAsStripeReadsThem() {
    #expect(
      StripeAPI.url(
        "https://api.stripe.com/v1/invoices", [("expand[]", "data.payments"), ("created[gte]", "17")])
        == "https://api.stripe.com/v1/invoices?expand%5B%5D=data.payments&created%5Bgte%5D=17")
    #expect(StripeAPI.escape("sub_1 x/ë") == "sub_1%20x%2F%C3%AB")
  }
}
