import Foundation

/// Runs command-line tools for fixtures.
package enum Tool {
  package struct Failed: Error, CustomStringConvertible {
    package var description: String
  }

  /// Runs `executable` with `arguments`, feeding `input` on stdin; returns stdout.
  package static func run(_ executable: String, _ arguments: [String], input: [UInt8]) throws -> [UInt8] {
    // Output goes to files, read once the tool has exited: a pipe read by FileHandle can fail with
    // EINTR (a SIGCHLD from another test's child) inside Foundation, which then traps.
    let dir = try TempDir()
    let outPath = dir.path("stdout")
    let errPath = dir.path("stderr")
    FileManager.default.createFile(atPath: outPath, contents: nil)
    FileManager.default.createFile(atPath: errPath, contents: nil)
    guard let out = FileHandle(forWritingAtPath: outPath), let err = FileHandle(forWritingAtPath: errPath)
    else {
      throw Failed(description: "cannot create the output files of \(executable)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe()
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    process.waitUntilExit()
    try? out.close()
    try? err.close()
    let output = try Data(contentsOf: URL(fileURLWithPath: outPath))
    let errors = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
    guard process.terminationStatus == 0 else {
      throw Failed(
        description: "\(arguments.first ?? executable) failed: \(String(decoding: errors, as: UTF8.self))")
    }
    return Array(output)
  }
}
