import Foundation

extension ReconciliationRun {
  /// `plan` with each physical file once: a file two patterns match, or that a symbolic link reaches
  /// again, is read only where it first appears (it would otherwise count every charge twice). Files
  /// are told apart by device and inode, after links are followed. Returns the plan and, per file left
  /// out, its name and the name it is read under.
  ///
  /// One file named under two roles (`app.credits` and `app.notifications`) is a config error (exit
  /// 78) naming both: it would feed only the first (docs/inputs.md#one-file-one-role).
  package static func readOnce(_ plan: [PlannedInput]) throws(RunError) -> (
    [PlannedInput], [(repeated: String, readAs: String)]
  ) {
    var seen: [FileIdentity: String] = [:]
    var roles: [FileIdentity: String] = [:]
    var kept: [PlannedInput] = []
    var repeats: [(repeated: String, readAs: String)] = []
    for input in plan {
      guard input.query == nil, let identity = FileIdentity(path: input.path) else {
        kept.append(input)
        continue
      }
      if let first = seen[identity] {
        if let role = roles[identity], role != input.role {
          let files = first == input.display ? first : "\(first) and \(input.display)"
          throw RunError(
            .config,
            "config: \(role) and \(input.role) name the same file (\(files)); "
              + "one file is one input: give each key its own file (docs/inputs.md#one-file-one-role)")
        }
        repeats.append((input.display, first))
        continue
      }
      seen[identity] = input.display
      roles[identity] = input.role
      kept.append(input)
    }
    return (kept, repeats)
  }
}

/// A file's device and inode number, links followed.
package struct FileIdentity: Hashable {
  package let device: UInt64
  package let inode: UInt64

  /// The identity of the file at `path`; `nil` when it cannot be read (the reader then says why).
  package init?(path: String) {
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
      let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
      let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
    else { return nil }
    self.device = device
    self.inode = inode
  }
}
