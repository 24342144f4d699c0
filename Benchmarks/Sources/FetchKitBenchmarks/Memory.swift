import Foundation

/// Peak resident memory of the current process in bytes (Linux `VmHWM`), or nil elsewhere.
func peakResidentBytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let digits = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return digits.map { $0 * 1024 }
    }
    return nil
}

/// Runs this executable again with `--memory-case name` and returns the peak resident
/// memory the child reports (throwing when the child fails or reports nothing), so each memory case is measured in a process of its own.
func measurePeakMemory(ofCase name: String, fetchPath: String) throws -> Int {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--memory-case", name, "--fetch-path", fetchPath]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw RawSQLite.Failure(description: "the memory case \(name) exited with status \(process.terminationStatus)")
    }
    let text = String(decoding: output, as: UTF8.self)
    guard let bytes = text.split(separator: "\n").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
        bytes > 0
    else { throw RawSQLite.Failure(description: "the memory case \(name) reported no peak (\(text))") }
    return bytes
}
