import Foundation

/// Runs command-line tools for fixtures.
package enum Tool {
  package struct Failed: Error, CustomStringConvertible {
    package var description: String
  }

  /// Runs `executable` with `arguments`, feeding `input` on stdin; returns stdout.
  package static func run(_ executable: String, _ arguments: [String], input: [UInt8]) throws -> [UInt8] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let writer = Thread {
      stdin.fileHandleForWriting.write(Data(input))
      try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failed(
        description: "\(arguments.first ?? executable) failed: \(String(decoding: errors, as: UTF8.self))")
    }
    return Array(output)
  }
}
