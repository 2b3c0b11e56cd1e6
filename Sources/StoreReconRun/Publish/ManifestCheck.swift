import Foundation
import StoreReconPlatform
import StoreReconIO

/// Checks a report folder against its `manifest.json` before it is mailed: every output the manifest
/// lists must be there with its size and SHA-256. A folder mixed from two runs, or changed by hand
/// since, is refused (exit 65) rather than mailed; a folder without a manifest is exit 66.
package enum ManifestCheck {
  /// Throws one line naming the first file that does not match (or the missing manifest).
  package static func verify(folder: String) throws(RunError) {
    let manifestPath = folder + "/manifest.json"
    guard let data = FileManager.default.contents(atPath: manifestPath) else {
      throw RunError(
        .missingInput, "\(folder) holds no readable manifest.json: not a finished run's folder; not mailed")
    }
    let outputs: [JSONValue]
    do {
      outputs = try JSONParser.parse(Array(data))["outputs"]?.arrayValue ?? []
    } catch {
      throw RunError(.dataError, "\(manifestPath) is not valid JSON (\(error)); not mailed")
    }
    guard !outputs.isEmpty else { throw RunError(.dataError, "\(manifestPath) lists no outputs; not mailed") }
    for output in outputs {
      if let problem = mismatch(output, folder: folder) {
        throw RunError(
          .dataError,
          "\(folder) does not match its manifest.json: \(problem); the folder is not one run's reports, "
            + "not mailed")
      }
    }
  }

  /// Why one output entry does not match its file; `nil` when it does.
  static func mismatch(_ output: JSONValue, folder: String) -> String? {
    guard let name = output["file"]?.stringValue, let bytes = output["bytes"]?.int64Value,
      let sha256 = output["sha256"]?.stringValue
    else { return "an output entry without file, bytes and sha256" }
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    guard !name.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else {
      return "\(name) is not a path inside the folder"
    }
    guard let data = FileManager.default.contents(atPath: folder + "/" + name) else {
      return "\(name) is missing"
    }
    if Int64(data.count) != bytes { return "\(name) has \(data.count) bytes, the manifest says \(bytes)" }
    if SHA256Digest.hex(of: Array(data)) != sha256 {
      return "\(name) has another SHA-256 than the manifest's"
    }
    return nil
  }
}
