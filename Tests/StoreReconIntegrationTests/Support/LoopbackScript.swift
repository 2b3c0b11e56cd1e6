import Foundation

/// Starting and stopping a loopback test server script (the SMTP sink, the App Store and Google API
/// stand-ins): the script writes its port to a file once it listens.
enum LoopbackScript {
  /// Runs `arguments` through `/usr/bin/env` in `process` (output discarded) and returns the port the
  /// script writes to `portFile`; stops the process and throws when none comes within 10 seconds.
  static func start(_ process: Process, arguments: [String], portFile: URL) throws -> Int {
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    for _ in 0..<200 {
      if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) { return port }
      usleep(50_000)
    }
    process.terminate()
    throw CocoaError(.fileReadNoSuchFile)
  }

  /// Whether `python3` runs `import <modules>` (the loopback scripts' standard-library needs).
  static func pythonImports(_ modules: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import " + modules]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
  }

  /// Ends `process` (SIGTERM, then SIGKILL after 2 s) and waits for it.
  static func stop(_ process: Process) {
    guard process.isRunning else { return }
    process.terminate()
    for _ in 0..<100 where process.isRunning { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}
