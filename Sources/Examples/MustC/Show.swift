import ExampleSupport

/// Prints a line to standard output and flushes it, so progress shows as it happens even
/// when the output goes into a pipe, and stays in order with the one-line error that
/// standard error gets at the end.
func show(_ line: String) {
    Terminal.say(line)
}
