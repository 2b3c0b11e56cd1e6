import Foundation
package import StoreReconPlatform
package import StoreReconReports

extension ReconciliationRun {
  /// How a run publishes its report folder whole (docs/reports.md, "How a report folder is
  /// published"): it holds the lock `<out>.lock` for the whole run, writes every file into a fresh
  /// `<out>.tmp-<pid>-<random>` beside the target, and renames that into place at the end; the
  /// previous report becomes `<out>.previous`.
  package final class Publication {
    /// The report folder as named (`--out`), for messages.
    package let out: String
    /// Its absolute path, without a trailing `/`.
    package let target: String
    /// Where this run writes until it publishes; `nil` before ``createStaging()``.
    private(set) var staging: String?
    private let lock: FileLock

    /// The folder's previous report, kept until the next run publishes.
    package var previous: String { target + ".previous" }

    private init(out: String, target: String, lock: FileLock) {
      self.out = out
      self.target = target
      self.lock = lock
    }

    /// Takes the lock of `out` (waiting at most `timeoutSeconds` for another run writing into it, exit
    /// 75 past that), refuses a target that is not a report folder (a partition's folder too, unless
    /// `partial`: this run writes one), and removes the temporary folders dead runs left.
    package static func begin(
      _ out: String, timeoutSeconds: Int, progress: any ProgressSink, partial: Bool = false
    ) throws(RunError) -> Publication {
      let target = absolute(out)
      let parent = (target as NSString).deletingLastPathComponent
      try makeDirectory(parent)
      let lockPath = target + ".lock"
      let taken: FileLock?
      do {
        taken = try FileLock.acquire(path: lockPath, timeoutSeconds: timeoutSeconds) { progress.note($0) }
      } catch {
        throw RunError(.ioError, "cannot lock \(lockPath): \(error.description)")
      }
      guard let lock = taken else {
        throw RunError(
          .unavailable,
          "another storerecon run is writing \(out) (it holds \(lockPath); waited \(timeoutSeconds) s); "
            + "try again when it has finished")
      }
      let publication = Publication(out: out, target: target, lock: lock)
      try publication.checkTarget(partial: partial)
      publication.removeStale(progress: progress)
      return publication
    }

    /// `path` absolute and without `.`, `..` or a trailing `/`.
    package static func absolute(_ path: String) -> String {
      URL(fileURLWithPath: path.isEmpty ? "." : path).standardizedFileURL.path
    }

    /// A run replaces only a report folder: missing, empty, or holding storerecon's `manifest.json`
    /// (or, for a run that writes a partial, a partition's `partial.tsv`) (docs/reports.md).
    private func checkTarget(partial: Bool) throws(RunError) {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: target, isDirectory: &isDirectory) else { return }
      guard isDirectory.boolValue else {
        throw RunError(.ioError, "cannot write the reports to \(out): it is a file, not a folder")
      }
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: target)) ?? []
      if entries.isEmpty || Publication.holdsReport(target) { return }
      if partial && Publication.holdsPartial(target) { return }
      let what =
        Publication.holdsPartial(target)
        ? "it holds a partition's partial.tsv, not a published report"
        : entries.contains("manifest.json")
          ? "its manifest.json is not a storerecon manifest, so it is not a published report"
          : "it holds files but no manifest.json, so it is not a storerecon report folder"
      throw RunError(
        .ioError,
        "cannot write the reports to \(out): \(what) that a run may replace; choose another --out or empty it"
      )
    }

    /// Whether `folder` holds a published report: a `manifest.json` storerecon wrote (`"tool": "storerecon"`).
    static func holdsReport(_ folder: String) -> Bool {
      guard let data = FileManager.default.contents(atPath: folder + "/manifest.json"),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return false }
      return object["tool"] as? String == "storerecon"
    }

    /// Whether `folder` holds a partition's partial (its first line names the format).
    static func holdsPartial(_ folder: String) -> Bool {
      guard let handle = FileHandle(forReadingAtPath: folder + "/" + RunPartial.fileName) else {
        return false
      }
      defer { try? handle.close() }
      let head = (try? handle.read(upToCount: 32)) ?? Data()
      return String(decoding: head, as: UTF8.self).hasPrefix("storerecon-partial ")
    }

    /// Removes `<out>.tmp-<pid>-…` folders whose run is no longer alive.
    private func removeStale(progress: any ProgressSink) {
      let parent = (target as NSString).deletingLastPathComponent
      let prefix = (target as NSString).lastPathComponent + ".tmp-"
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
      for entry in entries where entry.hasPrefix(prefix) {
        let pid = Int32(entry.dropFirst(prefix.count).prefix { $0 != "-" }) ?? 0
        guard !FileLock.processIsAlive(pid) else { continue }
        let path = parent + "/" + entry
        if (try? FileManager.default.removeItem(atPath: path)) != nil {
          progress.note("removed \(path), left by a run (process \(pid)) that did not finish")
        }
      }
    }

    /// Creates this run's temporary folder beside the target (mode 0750) and returns its path.
    package func createStaging() throws(RunError) -> String {
      var random = SystemRandomNumberGenerator()
      let suffix = String(random.next() & 0xFFFF_FFFF_FFFF, radix: 16)
      let path = "\(target).tmp-\(FileLock.processID)-\(suffix)"
      try Publication.makeDirectory(path)
      staging = path
      return path
    }

    /// Publishes the temporary folder as the target: files 0640 and folders 0750 (whatever the
    /// umask), the previous report moved to `<out>.previous`, then one `rename`. Every step is a
    /// rename, so a run killed between two leaves whole folders only: the report before the previous
    /// one goes to a temporary name of this run first and is removed last (or, if this run dies, by
    /// the next). Releases the lock.
    package func publish() throws(RunError) {
      guard let staging else { return }
      try Publication.restrictModes(staging)
      let files = FileManager.default
      let discarded = staging + "-discarded"
      if files.fileExists(atPath: target) {
        let entries = (try? files.contentsOfDirectory(atPath: target)) ?? []
        do {
          if entries.isEmpty {
            try files.removeItem(atPath: target)
          } else {
            if files.fileExists(atPath: previous) { try files.moveItem(atPath: previous, toPath: discarded) }
            try files.moveItem(atPath: target, toPath: previous)
          }
        } catch {
          throw RunError(
            .ioError, "cannot move the previous report \(out) aside: \(error.localizedDescription)")
        }
      }
      do {
        try files.moveItem(atPath: staging, toPath: target)
      } catch {
        throw RunError(.ioError, "cannot publish \(staging) as \(out): \(error.localizedDescription)")
      }
      self.staging = nil
      try? files.removeItem(atPath: discarded)
      lock.release()
    }

    /// Removes the temporary folder of a run that failed before publishing; releases the lock.
    package func discard() {
      if let staging { try? FileManager.default.removeItem(atPath: staging) }
      staging = nil
      lock.release()
    }

    /// Creates `path` and its missing parents; `path` itself gets mode 0750 when this creates it (a
    /// folder already there keeps its mode).
    package static func makeDirectory(_ path: String) throws(RunError) {
      guard !FileManager.default.fileExists(atPath: path) else { return }
      do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: path)
      } catch {
        throw RunError(.ioError, "cannot create \(path): \(error.localizedDescription)")
      }
    }

    /// Files under `folder` to 0640, folders to 0750.
    package static func restrictModes(_ folder: String) throws(RunError) {
      let files = FileManager.default
      do {
        try files.setAttributes([.posixPermissions: 0o750], ofItemAtPath: folder)
        for entry in try files.subpathsOfDirectory(atPath: folder) {
          let path = folder + "/" + entry
          var isDirectory: ObjCBool = false
          _ = files.fileExists(atPath: path, isDirectory: &isDirectory)
          try files.setAttributes(
            [.posixPermissions: isDirectory.boolValue ? 0o750 : 0o640], ofItemAtPath: path)
        }
      } catch {
        throw RunError(
          .ioError, "cannot set the modes of the reports in \(folder): \(error.localizedDescription)")
      }
    }
  }
}
