import Foundation

/// The example programs' output lines: unbuffered, so a reader of a pipe sees progress as it
/// happens and the lines of standard output and standard error stay in order.
public enum Terminal {
    /// Writes a line to standard output at once.
    ///
    /// When nobody reads any more (the pipe was closed, as by `| head -4`), the program ends
    /// quietly with status 0: what it would print cannot be seen, and every store write is a
    /// whole transaction, so stopping between two lines loses nothing.
    ///
    /// - Parameter line: the text, without its newline.
    public static func say(_ line: String) {
        fflush(nil)  // lines printed with `print` come first
        do {
            try FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            exit(0)
        }
    }

    /// Writes a line to standard error at once (after anything printed before), ignoring a
    /// closed standard error.
    ///
    /// - Parameter line: the text, without its newline.
    public static func complain(_ line: String) {
        fflush(nil)
        try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
    }
}
