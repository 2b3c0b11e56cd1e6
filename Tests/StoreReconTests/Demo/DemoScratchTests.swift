import Foundation
import Testing
@testable import StoreRecon

@Test func scratchGenerate() throws {
  var options = DemoOptions()
  options.users = Int(ProcessInfo.processInfo.environment["DEMO_USERS"] ?? "3000") ?? 3000
  let dir = ProcessInfo.processInfo.environment["DEMO_DIR"] ?? "/tmp/demoharness/w"
  let start = Date()
  let truth = try DemoWorld.generate(options, into: dir)
  print("generated \(options.users) users in \(Date().timeIntervalSince(start)) s; planted \(truth.planted.count)")
  print(truth.rejectsPerFile)
}
