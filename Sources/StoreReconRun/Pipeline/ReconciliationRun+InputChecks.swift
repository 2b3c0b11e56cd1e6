package import Foundation
package import StoreReconIO
package import StoreReconPlatform

extension ReconciliationRun {
  /// Refuses an input the run must not open: anything but a regular file (a FIFO would block the read
  /// forever, a device never ends; exit 66), and, unless the config sets `allowOutside: true`, a file
  /// outside the config's folder once links are followed (exit 78). Checked with `stat`, before any
  /// open, so a pipe is never opened.
  package static func checkInputFile(_ path: String, role: String, display: String, config: RunConfig)
    throws(RunError)
  {
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    let attributes = try? FileManager.default.attributesOfItem(atPath: resolved)
    guard let type = attributes?[.type] as? FileAttributeType else {
      throw RunError(.missingInput, "\(role) \(display) cannot be read (no such file, or no permission)")
    }
    guard type == .typeRegular else {
      throw RunError(
        .missingInput,
        "\(role) \(display) is \(describe(type)), not a regular file: refused (inputs must be files)")
    }
    guard !config.allowOutside else { return }
    let folder = URL(fileURLWithPath: config.baseDirectory).resolvingSymlinksInPath().path
    let prefix = folder.hasSuffix("/") ? folder : folder + "/"
    guard resolved.hasPrefix(prefix) else {
      throw RunError(
        .config,
        "\(role) \(display) is \(resolved), outside the config's folder \(folder): "
          + "set \"allowOutside\": true in the config to read it")
    }
  }

  /// What a file of `type` is, for the refusal.
  package static func describe(_ type: FileAttributeType) -> String {
    switch type {
    case .typeDirectory: return "a folder"
    case .typeCharacterSpecial: return "a character device"
    case .typeBlockSpecial: return "a block device"
    case .typeSocket: return "a socket"
    case .typeSymbolicLink: return "a broken link"
    default: return "a pipe (FIFO) or other special file"
    }
  }
}

extension ReconciliationRun {
  /// Checks every compressed input whole (``InputBytes/verify(path:displayName:)``): per damaged one,
  /// by plan index, the one-line error; notes the zip entries left unread.
  package static func verifyContainers(_ plan: [PlannedInput], progress: any ProgressSink) -> [Int: String] {
    var damaged: [Int: String] = [:]
    for (index, input) in plan.enumerated() where input.query == nil {
      do {
        for line in try InputBytes.verify(path: input.path, displayName: input.display) {
          progress.note("note: \(input.display): \(line)")
        }
      } catch {
        damaged[index] = error.description
      }
    }
    return damaged
  }
}
