import Foundation

/// Starting and stopping the python3 test servers (Mail/smtp_sink.py, Fetch/apple_api_server.py,
/// Fetch/google_api_server.py): each
/// writes the port it listens on to a file once it is ready, and exits by itself after its lifetime.
enum ScriptServer {
  /// Runs `arguments` (through /usr/bin/env, output dropped) and waits up to 10 s for a port number in
  /// `portFile`; the running process and the port.
  static func start(_ arguments: [String], portFile: URL) throws -> (Process, Int) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    for _ in 0..<200 {
      if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
        return (process, port)
      }
      usleep(50_000)
    }
    process.terminate()
    throw CocoaError(.fileReadNoSuchFile)
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
