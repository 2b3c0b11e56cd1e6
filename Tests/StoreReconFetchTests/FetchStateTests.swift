import Foundation
import Testing
import StoreReconFetch
import StoreReconTestSupport
import StoreReconSettings

@Suite struct FetchStateTests {
  struct Cursor: Codable, Equatable {
    var revision: String
    var days: [String]
  }

  @Test func aSavedSectionReadsBackAndOtherSectionsStay() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("sub/state.json").path
    let state = try FetchState(path: path)
    #expect(try state.load(Cursor.self, for: "apple") == nil)
    try state.save(Cursor(revision: "r1", days: ["2026-11-28"]), for: "apple")
    try state.save(Cursor(revision: "g", days: []), for: "google")
    let again = try FetchState(path: path)
    #expect(try again.load(Cursor.self, for: "apple") == Cursor(revision: "r1", days: ["2026-11-28"]))
    #expect(try again.load(Cursor.self, for: "google")?.revision == "g")
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("sub").path)
    #expect(names == ["state.json"], "no temporary file left")
  }

  @Test func aFileThatIsNotAStateFileIsADataError() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("state.json").path
    try "<html>".write(toFile: path, atomically: true, encoding: .utf8)
    #expect { try FetchState(path: path) } throws: { ($0 as? FetchError)?.kind == .dataError }
    try "{\"sources\":{\"apple\":{\"revision\":5}},\"version\":1}".write(
      toFile: path, atomically: true, encoding: .utf8)
    let state = try FetchState(path: path)
    #expect { try state.load(Cursor.self, for: "apple") } throws: { ($0 as? FetchError)?.kind == .dataError }
  }

  @Test func outputWritesWholeFilesOnlyWhenTheyChange() throws {
    let folder = try Binary.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = FetchOutput(root: folder.path)
    #expect(try output.write(Array("a\n".utf8), to: "apple/x.jsonl"))
    #expect(try !output.write(Array("a\n".utf8), to: "apple/x.jsonl"))
    #expect(try output.write(Array("b\n".utf8), to: "apple/x.jsonl"))
    #expect(output.written == ["apple/x.jsonl", "apple/x.jsonl"])
    #expect(output.read("apple/x.jsonl") == Array("b\n".utf8))
  }
}
