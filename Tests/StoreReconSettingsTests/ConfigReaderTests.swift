import Foundation
import Testing

@testable import StoreReconSettings

/// The config reader's scan for keys written twice, on JSON texts (the run's message: RunTests).
struct ConfigReaderTests {
  private func repeated(_ json: String) -> String? { ConfigReader.repeatedKey(in: Array(json.utf8)) }

  @Test func findsTheFirstRepeatWithItsPath() {
    #expect(repeated(#"{"a": 1, "a": 2}"#) == "a")
    #expect(repeated(#"{"a": {"b": 1, "c": {"d": [1, {"e": 1, "e": 2}]}}}"#) == "a.c.d[1].e")
    #expect(repeated(#"{"x": [{"k": 1}, {"k": 2}, {"k": 3, "k": 4}]}"#) == "x[2].k")
  }

  @Test func valuesAndOtherObjectsAreNotRepeats() {
    #expect(repeated(#"{"a": "a", "b": {"a": 1}, "c": [{"a": 1}, {"a": 2}]}"#) == nil)
    #expect(repeated(#"{"a": "{\"a\": 1, \"a\": 2}", "b": ["a", "a"]}"#) == nil)
  }

  @Test func escapedSpellingsOfOneKeyAreOneKey() {
    #expect(repeated(#"{"ab": 1, "a\u0062": 2}"#) == "ab")
  }

  @Test func theFileIsReadWholeOrRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-reader-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("storerecon.json").path
    #expect(throws: ConfigReader.Failure.missing) { try ConfigReader.object(atPath: path) }
    try Data(#"{"a": 1, "a": 2}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: ConfigReader.Failure.repeatedKey("a")) { try ConfigReader.object(atPath: path) }
    try Data("[1]".utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: ConfigReader.Failure.notObject) { try ConfigReader.object(atPath: path) }
    try Data(#"{"a": 1, "b": {"a": 2}}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(try ConfigReader.object(atPath: path).count == 2)
  }
}
