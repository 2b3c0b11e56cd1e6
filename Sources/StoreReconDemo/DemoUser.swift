/// One app user of the demo world, as a scenario sees it.
struct DemoUser {
  /// 0-based index.
  var index: Int
  /// `u0000001` ….
  var id: String
  /// Apple `appAccountToken` the app set for this user.
  var uuid: String
  /// Where the user buys.
  var country: DemoCountry
}
